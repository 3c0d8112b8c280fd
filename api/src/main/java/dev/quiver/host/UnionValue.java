package dev.quiver.host;

/**
 * One slot of a union: which member it holds and that member's value.
 *
 * @param typeId the member's type id (as declared in the union's format string)
 * @param value  the member's value in the {@link HostVector} Java mapping; may be null
 */
public record UnionValue(int typeId, Object value) {}
