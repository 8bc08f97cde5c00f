/**
 * {@code coll/tuned} (priority 30): per call, a forced algorithm, else the rules table ({@code
 * coll_tuned_dynamic_rules_filename}, Open MPI's format or HOCON), else the fixed rules, as Open
 * MPI's tuned component decides; the algorithms are coll/base's.
 */
package org.jmca.coll.tuned;
