package org.jmca.tests.programs;

/** A class without a main method that java would run: its only main is private. */
public class NoMain {
    private static void main(String[] args) {
        throw new AssertionError("a private main must not run");
    }
}
