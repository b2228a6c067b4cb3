/** The service-provider interface between the public API and the runtime. Not for applications. */
package io.jshmem.spi;
