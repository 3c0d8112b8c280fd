/**
 * The one door from Quiver's internal packages to what the public classes keep package-private:
 * {@link dev.quiver.internal.access.ApiAccess}. It names no public class of the API, so that no package cycle
 * runs through it. Not exported.
 */
package dev.quiver.internal.access;
