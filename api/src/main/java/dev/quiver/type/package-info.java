/**
 * The Arrow type model: {@link dev.quiver.type.ArrowType}, {@link dev.quiver.type.Field}, the C Data
 * Interface format strings ({@link dev.quiver.type.FormatString}) and the buffer layout each type has
 * ({@link dev.quiver.type.BufferLayout}). All classes here are immutable values, safe to share between
 * threads; none owns native memory.
 */
package dev.quiver.type;
