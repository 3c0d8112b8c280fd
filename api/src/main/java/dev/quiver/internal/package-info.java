/**
 * Implementation of export, import, release callbacks and copies. Not exported from the module; nothing
 * here is API.
 */
package dev.quiver.internal;
