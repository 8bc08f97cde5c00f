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

    /**
     * More significant digits than any long has (19 decimal, 16 hexadecimal, 21 octal), so a word
     * with more is too large without parsing it: BigInteger parsing is slower than linear, and a
     * word of a rules file may be megabytes long.
     */
    int MAX_DIGITS = 22;

    /** The longest word that messages quote whole; a longer one is quoted by its start and length. */
    int MAX_QUOTED = 40;

    static ClassicNumber parse(String word) {
        String unsigned = word.startsWith("+") || word.startsWith("-") ? word.substring(1) : word;
        boolean negative = word.startsWith("-");
        boolean hex = unsigned.length() > 2 && (unsigned.startsWith("0x") || unsigned.startsWith("0X"));
        String digits = hex ? unsigned.substring(2) : unsigned;
        int radix = hex ? 16 : 10;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c < 128 && Character.digit(c, radix) >= 0)) {
            return new NotANumber("'" + quoted(word) + "'");
        }
        if (radix == 10 && digits.length() > 1 && digits.startsWith("0")) {
            return new NotANumber(quoted(word) + ", which Open MPI reads as " + octal(digits)
                    + ": write the number without its leading 0");
        }
        if (significantDigits(digits) > MAX_DIGITS) {
            return new NotANumber(quoted(word) + ", which is too large");
        }
        BigInteger magnitude = new BigInteger(digits, radix);
        BigInteger value = negative ? magnitude.negate() : magnitude;
        if (value.bitLength() > 63) {
            return new NotANumber(quoted(word) + ", which is too large");
        }
        return new Value(value.longValue());
    }

    private static String octal(String digits) {
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '7')) {
            return "the octal number " + quoted(digits.substring(0, firstNonOctal(digits)))
                    + " followed by another number";
        }
        return significantDigits(digits) > MAX_DIGITS ? "an octal number too large for it"
                : "the octal number " + new BigInteger(digits, 8);
    }

    /** The digits after the leading zeros. */
    private static int significantDigits(String digits) {
        int zeros = 0;
        while (zeros < digits.length() && digits.charAt(zeros) == '0') {
            zeros++;
        }
        return digits.length() - zeros;
    }

    /** The word, or for a long one its start and length: "123456…(5000000 characters)". */
    static String quoted(String word) {
        if (word.length() <= MAX_QUOTED) {
            return word;
        }
        int end = Character.isHighSurrogate(word.charAt(MAX_QUOTED - 1)) ? MAX_QUOTED - 1 : MAX_QUOTED;
        return word.substring(0, end) + "\u2026 (" + word.length() + " characters)";
    }

    private static int firstNonOctal(String digits) {
        int i = 0;
        while (digits.charAt(i) >= '0' && digits.charAt(i) <= '7') {
            i++;
        }
        return i;
    }
}
