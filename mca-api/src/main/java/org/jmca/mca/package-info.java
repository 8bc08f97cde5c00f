/**
 * The component core: frameworks, components, selection.
 *
 * <p>A <b>framework</b> ({@link org.jmca.mca.Framework}) is a plug-in type; a <b>component</b>
 * ({@link org.jmca.mca.Component}) is a plug-in found by {@link java.util.ServiceLoader}; a
 * <b>module</b> is an instance a component makes (one per interface, one per communicator).
 * {@link org.jmca.mca.McaFrameworks#open} runs register → open → probe → select for every
 * framework and records why each unselected component was left out.
 *
 * <p>Worked example of an include/exclude list, for components self, sm and tcp:
 * <pre>
 *   btl=            → self, sm, tcp      (empty: every available one)
 *   btl=self,tcp    → self, tcp          (include)
 *   btl=^tcp        → self, sm           (exclude)
 *   btl=self,^tcp   → error: '^' only at the start
 *   btl=udp         → error: no component named 'udp'; available: self, sm, tcp
 * </pre>
 */
package org.jmca.mca;
