/**
 * {@code progress/polling}: the progress engine. Callbacks of high and low priority, waiting by
 * spin, yield or park (Agrona's idle strategies), and an optional helper thread for asynchronous
 * progress ({@code progress_polling_async}).
 */
package org.jmca.progress;
