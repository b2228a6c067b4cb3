package io.jshmem.transport.proxy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape of {@link FrameApplier}'s bytecode that the JIT measurements chose (docs/perf/frame-applier-20261127.md):
 * {@code parse} holds the dispatch and stays above C2's hot inlining limit (FreqInlineSize, 325 bytes), each frame
 * type is applied by a method of its own, and no method is near the 1,205-byte one that C1 refused.
 */
class FrameApplierShapeTest
{
    private static final int C2_HOT_INLINE_LIMIT = 325;
    private static final int LARGEST_METHOD = 600;

    @Test
    void parseStaysAboveC2sInliningLimitAndEveryFrameTypeHasAMethodOfItsOwn() throws IOException
    {
        final Map<String, Integer> sizes = codeSizes();
        assertTrue(sizes.get("parse") > C2_HOT_INLINE_LIMIT, "parse's bytecode must stay above " + C2_HOT_INLINE_LIMIT + " bytes: " + sizes);
        for (final String m : Set.of("put", "putSignal", "get", "amo", "getReply", "amoReply", "ack"))
        {
            assertNotNull(sizes.get(m), "a method applying " + m + " frames: " + sizes);
        }
        assertEquals(Map.of(), sizes.entrySet().stream().filter(e -> e.getValue() > LARGEST_METHOD)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)), "methods over " + LARGEST_METHOD + " bytes of bytecode");
    }

    /** Bytecode length of each method of FrameApplier, by name (no overloads there). */
    private static Map<String, Integer> codeSizes() throws IOException
    {
        final byte[] bytes;
        try (InputStream in = FrameApplier.class.getResourceAsStream("FrameApplier.class"))
        {
            assertNotNull(in, "FrameApplier.class on the class path");
            bytes = in.readAllBytes();
        }
        final ClassModel model = ClassFile.of().parse(bytes);
        final Map<String, Integer> sizes = new TreeMap<>();
        for (final MethodModel m : model.methods())
        {
            m.findAttribute(java.lang.classfile.Attributes.code())
                .ifPresent(code -> sizes.merge(m.methodName().stringValue(), ((CodeAttribute)code).codeLength(), Math::max));
        }
        return sizes;
    }
}
