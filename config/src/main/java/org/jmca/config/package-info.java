/**
 * Parameter sources: the command line, the environment, {@code --tune} files, the user and
 * system files and {@code reference.conf}, read into the settings that
 * {@link org.jmca.mca.param.ParameterRegistry} resolves. Files are Typesafe Config (HOCON) or
 * Open MPI's {@code name = value} lines.
 */
package org.jmca.config;
