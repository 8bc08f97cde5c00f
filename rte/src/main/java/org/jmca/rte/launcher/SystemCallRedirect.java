package org.jmca.rte.launcher;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.nio.charset.StandardCharsets;

/**
 * Rewrites a thread rank's class so that its calls of {@code System.exit}, {@code Runtime.exit},
 * {@code Runtime.halt} and {@code System.getenv} go to {@link RankSystem} instead (the JDK's
 * class-file API): a rank that exits ends itself, not the JVM and every other rank in it. A class
 * that names none of them is left as it is, unparsed.
 */
final class SystemCallRedirect {
    private static final ClassDesc RANK_SYSTEM = ClassDesc.of(RankSystem.class.getName());
    private static final MethodTypeDesc RUNTIME_AND_STATUS = MethodTypeDesc.ofDescriptor("(Ljava/lang/Runtime;I)V");
    private static final byte[][] NAMES = {bytes("exit"), bytes("halt"), bytes("getenv")};

    private SystemCallRedirect() {
    }

    /** The class-file API as a rank's loader uses it: it finds the classes a rewritten method merges there. */
    static ClassFile classFiles(ClassLoader loader) {
        return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                .orElse(ClassHierarchyResolver.ofResourceParsing(loader)).cached()));
    }

    /**
     * {@code classFile} with its exits and environment reads redirected, or as it is if it makes
     * none. A class whose stack maps cannot be made again (a type it merges is missing, as an
     * optional dependency may be) is left as it is, with a warning: it loads, as it would in a
     * process, but its exit would end the JVM.
     */
    static byte[] apply(String name, byte[] classFile, ClassFile files) {
        if (!namesAny(classFile)) {
            return classFile;
        }
        try {
            return rewrite(classFile, files);
        } catch (IllegalArgumentException e) {
            System.err.println("jmca: warning: " + name + " is loaded as it is, its System.exit and System.getenv"
                    + " not redirected to its thread rank: " + e.getMessage());
            return classFile;
        }
    }

    private static byte[] rewrite(byte[] classFile, ClassFile files) {
        boolean[] changed = {false};
        byte[] rewritten = files.transformClass(files.parse(classFile),
                ClassTransform.transformingMethodBodies((code, element) -> {
                    MethodTypeDesc replacement = element instanceof InvokeInstruction call ? replacement(call) : null;
                    if (replacement == null) {
                        code.with(element);
                        return;
                    }
                    code.invokestatic(RANK_SYSTEM, ((InvokeInstruction) element).name().stringValue(), replacement);
                    changed[0] = true;
                }));
        return changed[0] ? rewritten : classFile;
    }

    /** The descriptor of RankSystem's stand-in for {@code call}, or null if it stays. */
    private static MethodTypeDesc replacement(InvokeInstruction call) {
        String owner = call.owner().asInternalName();
        String name = call.name().stringValue();
        String type = call.type().stringValue();
        if (call.opcode() == Opcode.INVOKESTATIC && owner.equals("java/lang/System")
                && (name.equals("exit") && type.equals("(I)V") || name.equals("getenv"))) {
            return call.typeSymbol();
        }
        if (call.opcode() == Opcode.INVOKEVIRTUAL && owner.equals("java/lang/Runtime")
                && (name.equals("exit") || name.equals("halt")) && type.equals("(I)V")) {
            return RUNTIME_AND_STATUS;
        }
        return null;
    }

    private static boolean namesAny(byte[] classFile) {
        for (byte[] name : NAMES) {
            if (contains(classFile, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
