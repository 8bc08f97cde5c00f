/**
 * MCA parameters: typed declarations ({@link org.jmca.mca.param.ParameterSpec}), their values
 * and where each value came from ({@link org.jmca.mca.param.ValueSource}).
 *
 * <p>Sources, highest first: the API, {@code --mca k v}, the environment {@code JMCA_MCA_k},
 * {@code --tune FILE}, the user file {@code ~/.jmca/mca-params.conf}, the system file
 * {@code $JMCA_HOME/etc/mca-params.conf}, {@code reference.conf} files, the declared default.
 * The config module reads the sources; this package resolves them.
 */
package org.jmca.mca.param;
