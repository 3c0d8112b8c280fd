/**
 * Structure tests. Of the compiled API ({@code ApiStructureTest}): its packages form no cycle, only the C ABI
 * package makes restricted FFM calls, nothing reflects on members by name, and the files of {@code dev.quiver} use
 * each other only where a shrinking list allows; these checks read class files' constant pools. Of the main sources
 * of every module ({@code ModuleSourcesTest}): no reflection by name beyond a named allow-list, and no file over 500
 * lines beyond a shrinking list; these read the working tree's sources, since the other modules are built after
 * the API. Each check is also run on small inputs with a known answer, to show it catches what it looks for.
 */
package dev.quiver.structure;
