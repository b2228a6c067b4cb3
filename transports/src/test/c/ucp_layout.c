/* Prints the offsets, sizes and constants of ucp.h that io.jshmem.transport.ucx.Ucp hard-codes, one
 * "NAME value" per line; UcpLayoutTest compiles it against the installed headers and compares. */
#include <stdio.h>
#include <stddef.h>
#include <ucp/api/ucp.h>

#define OFF(name, type, field) printf("%s %zu\n", name, offsetof(type, field))
#define SIZE(name, type) printf("%s %zu\n", name, sizeof(type))
#define VAL(name, value) printf("%s %lld\n", name, (long long)(value))

int main(void)
{
    SIZE("PARAMS_SIZE", ucp_params_t);
    OFF("PARAMS_FEATURES", ucp_params_t, features);
    VAL("PARAM_FIELD_FEATURES", UCP_PARAM_FIELD_FEATURES);
    VAL("FEATURE_RMA", UCP_FEATURE_RMA);
    VAL("FEATURE_AMO32", UCP_FEATURE_AMO32);
    VAL("FEATURE_AMO64", UCP_FEATURE_AMO64);
    VAL("FEATURE_WAKEUP", UCP_FEATURE_WAKEUP);
    VAL("FEATURE_AM", UCP_FEATURE_AM);
    SIZE("AM_HANDLER_PARAM_SIZE", ucp_am_handler_param_t);
    OFF("AM_HANDLER_PARAM_ID", ucp_am_handler_param_t, id);
    OFF("AM_HANDLER_PARAM_CB", ucp_am_handler_param_t, cb);
    OFF("AM_HANDLER_PARAM_ARG", ucp_am_handler_param_t, arg);
    VAL("AM_HANDLER_PARAM_FIELD_ID", UCP_AM_HANDLER_PARAM_FIELD_ID);
    VAL("AM_HANDLER_PARAM_FIELD_CB", UCP_AM_HANDLER_PARAM_FIELD_CB);
    VAL("AM_HANDLER_PARAM_FIELD_ARG", UCP_AM_HANDLER_PARAM_FIELD_ARG);
    SIZE("WORKER_PARAMS_SIZE", ucp_worker_params_t);
    OFF("WORKER_PARAMS_THREAD_MODE", ucp_worker_params_t, thread_mode);
    VAL("WORKER_PARAM_FIELD_THREAD_MODE", UCP_WORKER_PARAM_FIELD_THREAD_MODE);
    VAL("THREAD_MODE_MULTI", UCS_THREAD_MODE_MULTI);
    SIZE("EP_PARAMS_SIZE", ucp_ep_params_t);
    OFF("EP_PARAMS_ADDRESS", ucp_ep_params_t, address);
    OFF("EP_PARAMS_ERR_MODE", ucp_ep_params_t, err_mode);
    OFF("EP_PARAMS_ERR_HANDLER", ucp_ep_params_t, err_handler);
    VAL("EP_PARAM_FIELD_REMOTE_ADDRESS", UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
    VAL("EP_PARAM_FIELD_ERR_HANDLING_MODE", UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE);
    VAL("EP_PARAM_FIELD_ERR_HANDLER", UCP_EP_PARAM_FIELD_ERR_HANDLER);
    VAL("ERR_HANDLING_MODE_PEER", UCP_ERR_HANDLING_MODE_PEER);
    VAL("EP_CLOSE_FLAG_FORCE", UCP_EP_CLOSE_FLAG_FORCE);
    SIZE("MEM_MAP_PARAMS_SIZE", ucp_mem_map_params_t);
    OFF("MEM_MAP_PARAMS_ADDRESS", ucp_mem_map_params_t, address);
    OFF("MEM_MAP_PARAMS_LENGTH", ucp_mem_map_params_t, length);
    VAL("MEM_MAP_PARAM_FIELD_ADDRESS", UCP_MEM_MAP_PARAM_FIELD_ADDRESS);
    VAL("MEM_MAP_PARAM_FIELD_LENGTH", UCP_MEM_MAP_PARAM_FIELD_LENGTH);
    SIZE("REQUEST_PARAM_SIZE", ucp_request_param_t);
    OFF("REQUEST_PARAM_FLAGS", ucp_request_param_t, flags);
    OFF("REQUEST_PARAM_DATATYPE", ucp_request_param_t, datatype);
    OFF("REQUEST_PARAM_REPLY_BUFFER", ucp_request_param_t, reply_buffer);
    VAL("OP_ATTR_FIELD_FLAGS", UCP_OP_ATTR_FIELD_FLAGS);
    VAL("OP_ATTR_FIELD_DATATYPE", UCP_OP_ATTR_FIELD_DATATYPE);
    VAL("OP_ATTR_FIELD_REPLY_BUFFER", UCP_OP_ATTR_FIELD_REPLY_BUFFER);
    VAL("OP_ATTR_FLAG_FAST_CMPL", UCP_OP_ATTR_FLAG_FAST_CMPL);
    VAL("ATOMIC_OP_ADD", UCP_ATOMIC_OP_ADD);
    VAL("ATOMIC_OP_SWAP", UCP_ATOMIC_OP_SWAP);
    VAL("ATOMIC_OP_CSWAP", UCP_ATOMIC_OP_CSWAP);
    VAL("ATOMIC_OP_AND", UCP_ATOMIC_OP_AND);
    VAL("ATOMIC_OP_OR", UCP_ATOMIC_OP_OR);
    VAL("ATOMIC_OP_XOR", UCP_ATOMIC_OP_XOR);
    VAL("UCS_OK", UCS_OK);
    VAL("UCS_INPROGRESS", UCS_INPROGRESS);
    VAL("UCS_ERR_BUSY", UCS_ERR_BUSY);
    VAL("UCS_ERR_LAST", UCS_ERR_LAST);
    VAL("API_MAJOR", UCP_API_MAJOR);
    VAL("CONTIG_8", ucp_dt_make_contig(8));
    VAL("CONTIG_4", ucp_dt_make_contig(4));
    return 0;
}
