/**
 * The collective framework: per communicator and per function, the highest-priority component
 * that provides a function serves it and may keep the one below as its fallback.
 */
package org.jmca.mca.coll;
