/**
 * Plumbing shared by Quiver's FFM vendor backends: {@link dev.quiver.device.ffm.VendorLibrary} loads a vendor
 * library and says which candidates were missing, {@link dev.quiver.device.ffm.Bindings} calls entry points
 * bound from a backend's declarative table and turns result codes (returned, or written through an
 * out-parameter as OpenCL's constructors do) into the backend's exceptions, and
 * {@link dev.quiver.device.ffm.Allocations} tracks a device's live allocations. Internal to Quiver's backends.
 */
package dev.quiver.device.ffm;
