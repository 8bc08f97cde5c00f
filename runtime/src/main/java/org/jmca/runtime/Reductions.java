package org.jmca.runtime;

import org.jmca.mca.coll.Reduction;

/** The reduction a predefined operation makes of a datatype, or why it is not defined for it. */
public final class Reductions {
    private Reductions() {
    }

    /**
     * {@code op} on elements of {@code type}: a tight loop where there is one
     * ({@link NumericReductions}), else the general one.
     *
     * @throws MpiError of class OP where MPI does not define the operation for the type
     */
    public static Reduction predefined(PredefinedOp op, Type type) {
        if (op == PredefinedOp.REPLACE || op == PredefinedOp.NO_OP) {
            throw new MpiError(ErrorClass.OP, "MPI." + op + " is for one-sided accumulates only, not for reductions");
        }
        if (type.isPair() != (op == PredefinedOp.MINLOC || op == PredefinedOp.MAXLOC)) {
            throw undefined(op, type, type.isPair() ? "pair types only take MPI.MINLOC and MPI.MAXLOC"
                    : "MINLOC and MAXLOC need a pair type such as MPI.INT2 or MPI.DOUBLE_INT");
        }
        boolean floating = type.base() == Type.Base.FLOAT || type.base() == Type.Base.DOUBLE;
        boolean bitwise = op == PredefinedOp.BAND || op == PredefinedOp.BOR || op == PredefinedOp.BXOR;
        boolean logical = op == PredefinedOp.LAND || op == PredefinedOp.LOR || op == PredefinedOp.LXOR;
        if (floating && (bitwise || logical)) {
            throw undefined(op, type, "it is defined for integer and boolean types");
        }
        if (type.base() == Type.Base.BOOLEAN && !(bitwise || logical)) {
            throw undefined(op, type, "booleans take the logical and bitwise operations only");
        }
        Reduction fast = type.isPair() ? null : NumericReductions.of(op, type.base());
        return fast != null ? fast : new PredefinedReduction(op, type);
    }

    private static MpiError undefined(PredefinedOp op, Type type, String why) {
        return new MpiError(ErrorClass.OP, "MPI." + op + " is not defined for " + type + ": " + why);
    }
}
