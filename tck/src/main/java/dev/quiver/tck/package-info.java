/**
 * The conformance kit. A backend's test extends {@link dev.quiver.tck.DeviceProviderConformance} and names
 * its provider; the suite then checks probing, allocation (0, 1, odd sizes, 64 MiB), copies both ways at
 * odd offsets, streams, events (where supported), native handles and the adoption of streams and
 * events, export through real C and import back, release exactly
 * once (counted in C) and concurrent use from two threads.
 *
 * {@snippet class=dev.quiver.tck.snippets.TckSnippets region=conformance}
 */
package dev.quiver.tck;
