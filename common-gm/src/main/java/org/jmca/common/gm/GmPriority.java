package org.jmca.common.gm;

/** {@code GM_LOW_PRIORITY}, {@code GM_HIGH_PRIORITY}: two independent streams, each in order. */
public enum GmPriority { LOW, HIGH }
