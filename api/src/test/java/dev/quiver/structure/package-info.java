/**
 * Structure tests of the compiled API: its packages form no cycle, and only the C ABI package makes
 * restricted FFM calls. The checks read class files' constant pools; each is also run on small classes
 * compiled at test time, with a cycle or a stray restricted call, to show it catches them.
 */
package dev.quiver.structure;
