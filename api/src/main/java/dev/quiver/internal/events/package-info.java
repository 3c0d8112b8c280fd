/**
 * JDK Flight Recorder events of the API: array import, export, release and copy, and stream batches, each
 * with its device, field, length and duration (copies also with their bytes). Event names start with
 * {@code dev.quiver.}; record them with {@code -XX:StartFlightRecording} or {@code jcmd <pid> JFR.start} and
 * read them with {@code jfr print --events 'dev.quiver.*' recording.jfr}.
 *
 * <p><b>Cost.</b> The code on the hot paths asks an event class's {@code start()} first, which returns
 * null (making no object) unless a recording has the event enabled; only then are fields computed.
 * This package uses nothing of {@code dev.quiver}: callers pass plain strings and numbers.
 */
package dev.quiver.internal.events;
