/**
 * The {@code hostext} backend: an example of a vendor plugin, written against the Quiver SPI alone and
 * proven by the Quiver TCK.
 *
 * <p>It serves {@code ARROW_DEVICE_EXT_DEV} (12), the device type the Arrow C Device Data Interface
 * reserves for devices whose producer defines the meaning of pointers and events. Here:
 * <ul>
 *   <li><b>Pointers</b> are host addresses of memory the backend allocated, but consumers treat them as
 *       opaque handles (the device is not host-accessible): every copy goes through the backend, which
 *       accepts only its own allocations plus a byte offset.</li>
 *   <li><b>Streams</b> are queues with one worker thread each; copies are enqueued and complete later.</li>
 *   <li><b>Events</b> are host-side counters: recording an event notes how many tasks its stream had been
 *       given; the event is complete once the stream has finished that many. An event handle is an id, and
 *       an array's {@code sync_event} is a pointer to host memory holding that id, as the spec requires of
 *       every device type (a pointer to the event, not the event).</li>
 * </ul>
 */
package com.example.quiver.hostext;
