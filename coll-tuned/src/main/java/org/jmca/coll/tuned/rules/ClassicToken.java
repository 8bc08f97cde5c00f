package org.jmca.coll.tuned.rules;

/**
 * A word of a classic rules file.
 *
 * @param text      the word
 * @param line      the line it is on, from 1
 * @param afterBlanks whether only spaces and tabs separate it from the previous word, which is
 *                  how Open MPI tells that a version-2 rule line has its fifth field
 */
record ClassicToken(String text, int line, boolean afterBlanks) {

    /** Whether Open MPI would read a max-requests field here: a digit right after blanks. */
    boolean continuesRuleLine() {
        return afterBlanks && text.charAt(0) >= '0' && text.charAt(0) <= '9';
    }
}
