/**
 * The programs README's first command runs: Hello, Ring and Pi.
 */
package examples;
