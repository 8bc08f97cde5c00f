/**
 * coll/tuned's rules tables: the files that choose, per collective, communicator size and
 * message size, the algorithm coll/tuned runs, read exactly as Open MPI reads them so that
 * existing tuning files work unchanged, but with every problem reported as file:line.
 *
 * <ul>
 *   <li>{@link org.jmca.coll.tuned.rules.RulesFiles#read} reads either format;
 *       {@link org.jmca.coll.tuned.rules.ClassicRulesFile} and
 *       {@link org.jmca.coll.tuned.rules.HoconRulesFile} read one each.</li>
 *   <li>{@link org.jmca.coll.tuned.rules.RulesTable#lookup} gives the rule for a call; an empty
 *       answer, or a rule of algorithm 0, leaves the choice to the fixed rules.</li>
 *   <li>{@link org.jmca.coll.tuned.rules.TunedCollective#messageSize} computes the message size
 *       a rule is compared with, as Open MPI does for each collective.</li>
 *   <li>{@link org.jmca.coll.tuned.rules.RulesCheck} is the {@code jmca-coll-rules} command.</li>
 * </ul>
 */
package org.jmca.coll.tuned.rules;
