/**
 * {@code jmca-info}: every framework, component, parameter and counter, as {@code ompi_info}
 * lists them, with why each component is or is not selected; sections other modules add.
 */
package org.jmca.config.info;
