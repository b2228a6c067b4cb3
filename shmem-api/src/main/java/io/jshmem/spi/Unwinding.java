package io.jshmem.spi;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.instruction.BranchInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.LookupSwitchInstruction;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.classfile.instruction.TableSwitchInstruction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tells whether a method was called from exception-handling code: whether its call site can be
 * reached in the caller's bytecode only through an exception handler (a {@code catch} block, the
 * exceptional copy of a {@code finally} block, or the close that try-with-resources runs when its body
 * throws), never by normal control flow from the method's entry. Java gives no other way to see that
 * a thread is unwinding; javac compiles each of those paths into handler code, so the answer is exact
 * for javac-compiled callers. Used by {@code Shmem.close()} so that a PE leaving
 * {@code try (Shmem shmem = Shmem.init())} by an exception does not enter the collective finalize
 * (which the other PEs, still running, would never match). Not for applications.
 */
public final class Unwinding
{
    private Unwinding()
    {
    }

    /**
     * Finds whether the caller of {@code callee} runs inside exception handling.
     *
     * @param callee the class whose method asks (frames of it, and of this class, are skipped).
     * @return a description of the caller's call site ({@code "Main.main (bytecode 42)"}) if it is
     *         reached only through exception handlers, or empty if it is on a normal path or cannot be
     *         told (no class file, a frame without bytecode).
     */
    public static Optional<String> callerInHandler(final Class<?> callee)
    {
        final Optional<StackWalker.StackFrame> frame = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(s -> s.filter(f -> f.getDeclaringClass() != Unwinding.class && !callee.isAssignableFrom(f.getDeclaringClass()))
                .findFirst());
        if (frame.isEmpty())
        {
            return Optional.empty();
        }
        final StackWalker.StackFrame f = frame.get();
        try
        {
            final boolean handler = onlyInHandler(f.getDeclaringClass(), f.getMethodName(), f.getDescriptor(), f.getByteCodeIndex());
            return handler ? Optional.of(f.getClassName() + "." + f.getMethodName() + " (bytecode " + f.getByteCodeIndex() + ")") :
                Optional.empty();
        }
        catch (final IOException | RuntimeException ex)
        {
            return Optional.empty(); // no class file to read (generated code): take the normal path
        }
    }

    /**
     * @return true if the instruction at {@code bci} in the method is unreachable from its entry by
     *         normal control flow (so only an exception handler leads there).
     */
    static boolean onlyInHandler(final Class<?> owner, final String method, final String descriptor, final int bci)
        throws IOException
    {
        if (bci < 0)
        {
            return false;
        }
        final byte[] bytes;
        try (InputStream in = owner.getResourceAsStream("/" + owner.getName().replace('.', '/') + ".class"))
        {
            if (in == null)
            {
                return false;
            }
            bytes = in.readAllBytes();
        }
        final ClassModel model = ClassFile.of().parse(bytes);
        for (final MethodModel m : model.methods())
        {
            if (m.methodName().equalsString(method) && m.methodType().equalsString(descriptor))
            {
                final Optional<CodeModel> code = m.code();
                return code.isPresent() && !reachable(code.get(), bci);
            }
        }
        return false;
    }

    /** Breadth-first search over normal control-flow edges (branches, switches, fall-through), no exception edges. */
    private static boolean reachable(final CodeModel code, final int target)
    {
        final CodeAttribute attribute = (CodeAttribute)code;
        final List<Instruction> instructions = new ArrayList<>();
        final List<Integer> bcis = new ArrayList<>();
        final Map<Integer, Integer> indexOfBci = new HashMap<>();
        int bci = 0;
        for (final CodeElement e : code)
        {
            if (e instanceof Instruction i)
            {
                indexOfBci.put(bci, instructions.size());
                instructions.add(i);
                bcis.add(bci);
                bci += i.sizeInBytes();
            }
            else if (e instanceof LabelTarget)
            {
                // labels carry no bytes; targets are resolved through labelToBci
            }
        }
        final BitSet seen = new BitSet(instructions.size());
        final ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(0);
        seen.set(0);
        while (!work.isEmpty())
        {
            final int index = work.poll();
            if (bcis.get(index) == target)
            {
                return true;
            }
            final Instruction i = instructions.get(index);
            final List<Label> targets = new ArrayList<>();
            boolean fallsThrough = true;
            switch (i)
            {
                case BranchInstruction b ->
                {
                    targets.add(b.target());
                    fallsThrough = b.opcode() != Opcode.GOTO && b.opcode() != Opcode.GOTO_W;
                }
                case TableSwitchInstruction t ->
                {
                    targets.add(t.defaultTarget());
                    t.cases().stream().map(SwitchCase::target).forEach(targets::add);
                    fallsThrough = false;
                }
                case LookupSwitchInstruction l ->
                {
                    targets.add(l.defaultTarget());
                    l.cases().stream().map(SwitchCase::target).forEach(targets::add);
                    fallsThrough = false;
                }
                default -> fallsThrough = !endsFlow(i.opcode());
            }
            for (final Label label : targets)
            {
                visit(indexOfBci.get(attribute.labelToBci(label)), seen, work);
            }
            if (fallsThrough && index + 1 < instructions.size())
            {
                visit(index + 1, seen, work);
            }
        }
        return false;
    }

    private static void visit(final Integer index, final BitSet seen, final ArrayDeque<Integer> work)
    {
        if (index != null && !seen.get(index))
        {
            seen.set(index);
            work.add(index);
        }
    }

    private static boolean endsFlow(final Opcode op)
    {
        return switch (op)
        {
            case ATHROW, RETURN, IRETURN, LRETURN, FRETURN, DRETURN, ARETURN, RET -> true;
            default -> false;
        };
    }
}
