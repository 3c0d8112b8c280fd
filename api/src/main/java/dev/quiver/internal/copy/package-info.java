/**
 * Copying whole arrays between devices through the SPI: every buffer of the tree, with staging through host
 * memory where neither side can address the other. Not exported from the module.
 */
package dev.quiver.internal.copy;
