/**
 * coll/sm: small and medium collectives among the ranks of one host, written directly on shared
 * memory - flags with increasing sequence numbers, one writer per 128-byte block, small payloads
 * in the flag's cache line, a ring of flag blocks and two slots so that writers run ahead of
 * readers - for processes (a mapped file) and for thread ranks (native memory).
 */
package org.jmca.coll.sm;
