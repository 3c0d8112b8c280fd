package dev.quiver.flight;

import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.function.Supplier;

/**
 * A stream the server offers under a ticket: its name (the descriptor path clients ask about), its schema,
 * its row count if known (else -1) and how to open it for one fetch. Immutable; {@code opener} is called on
 * the thread of each fetch, possibly by several fetches at once.
 *
 * @param name   the descriptor path
 * @param ticket the ticket issued for it
 * @param schema the struct field of every batch
 * @param arrowSchema the same schema as Arrow Java sends it
 * @param rows   the row count, or -1 if unknown
 * @param opener opens the stream for one fetch; the fetch owns what it returns
 */
record ServedStream(String name, Ticket ticket, Field schema, Schema arrowSchema, long rows, Supplier<DeviceArrayStream> opener) {
}
