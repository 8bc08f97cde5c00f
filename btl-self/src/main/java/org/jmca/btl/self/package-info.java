/**
 * {@code btl/self}: messages a rank sends to itself, delivered by the next progress turn.
 */
package org.jmca.btl.self;
