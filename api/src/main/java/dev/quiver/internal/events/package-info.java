/**
 * JDK Flight Recorder events of the API: array import, export, release and copy, and stream batches, each
 * with its device, field, length and duration (copies also with their bytes). Event names start with
 * {@code dev.quiver.}; record them with {@code -XX:StartFlightRecording} or {@code jcmd <pid> JFR.start} and
 * read them with {@code jfr print --events 'dev.quiver.*' recording.jfr}.
 *
 * <p><b>Cost.</b> The code on the hot paths asks {@link dev.quiver.internal.events.Recorder} first, which
 * returns null (making no object, touching no event class) unless a flight recorder runs and a recording has
 * the event enabled; only then are fields computed.
 * This package uses nothing of {@code dev.quiver}: callers pass plain strings and numbers.
 */
package dev.quiver.internal.events;
