package org.jmca.coll.tuned.rules;

import java.math.BigInteger;

/**
 * A word of a classic file read as Open MPI's {@code fscanf("%li")} reads it: an optional sign,
 * then decimal, or hexadecimal after 0x. A leading 0 makes scanf read octal, which nobody
 * means in a rules file, so such a word is refused with both readings spelled out.
 */
sealed interface ClassicNumber {

    /** A number. */
    record Value(long value) implements ClassicNumber { }

    /** Not a number; {@code found} says what it is instead, for "found ..." in messages. */
    record NotANumber(String found) implements ClassicNumber { }

    static ClassicNumber parse(String word) {
        String unsigned = word.startsWith("+") || word.startsWith("-") ? word.substring(1) : word;
        boolean negative = word.startsWith("-");
        boolean hex = unsigned.length() > 2 && (unsigned.startsWith("0x") || unsigned.startsWith("0X"));
        String digits = hex ? unsigned.substring(2) : unsigned;
        int radix = hex ? 16 : 10;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c < 128 && Character.digit(c, radix) >= 0)) {
            return new NotANumber("'" + word + "'");
        }
        if (radix == 10 && digits.length() > 1 && digits.startsWith("0")) {
            return new NotANumber(word + ", which Open MPI reads as the octal number " + octal(digits)
                    + ": write the number without its leading 0");
        }
        BigInteger magnitude = new BigInteger(digits, radix);
        BigInteger value = negative ? magnitude.negate() : magnitude;
        if (value.bitLength() > 63) {
            return new NotANumber(word + ", which is too large");
        }
        return new Value(value.longValue());
    }

    private static String octal(String digits) {
        return digits.chars().allMatch(c -> c >= '0' && c <= '7')
                ? new BigInteger(digits, 8).toString()
                : digits.substring(0, firstNonOctal(digits)) + " followed by another number";
    }

    private static int firstNonOctal(String digits) {
        int i = 0;
        while (digits.charAt(i) >= '0' && digits.charAt(i) <= '7') {
            i++;
        }
        return i;
    }
}
