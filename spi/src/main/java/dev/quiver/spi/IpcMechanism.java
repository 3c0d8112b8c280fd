package dev.quiver.spi;

/**
 * How a device's memory reaches another process on the same machine without a copy: the driver mechanism
 * behind {@link IpcMemory#exportMemory} and {@link IpcMemory#openMemory}. A mechanism that names an
 * allocation by opaque bytes has a fixed {@link #handleBytes()}; one that names it by a file descriptor has
 * none, and the descriptor travels by {@code SCM_RIGHTS} over a Unix domain socket.
 *
 * <p>A mechanism also says whether the driver shares events the same way: where {@link #eventHandleBytes()} is
 * more than zero, a device of this mechanism may offer {@link IpcEvents#exportEvent} and
 * {@link IpcEvents#openEvent} with {@link IpcEventHandle}s of this mechanism and that size
 * ({@code cuIpcGetEventHandle} for {@link #CUDA_IPC}, {@code hipIpcGetEventHandle} for {@link #HIP_IPC}).
 */
public enum IpcMechanism {
    /** The device has no mechanism: its memory is copied through shared host memory. */
    NONE("none (copied through shared host memory)", 0, 0),
    /** Host memory in a {@code memfd}, mapped by the peer. */
    MEMFD("memfd", 0, 0),
    /**
     * CUDA {@code cuIpcGetMemHandle} / {@code cuIpcOpenMemHandle}, for {@code cuMemAlloc} memory; events by
     * {@code cuIpcGetEventHandle} / {@code cuIpcOpenEventHandle}.
     */
    CUDA_IPC("CUDA IPC (cuIpcGetMemHandle)", 64, 64),
    /** CUDA {@code cuMemExportToShareableHandle} as a POSIX file descriptor, for virtual memory management allocations. */
    CUDA_FD("CUDA POSIX fd (cuMemExportToShareableHandle)", 0, 0),
    /**
     * HIP {@code hipIpcGetMemHandle} / {@code hipIpcOpenMemHandle}; events by {@code hipIpcGetEventHandle} /
     * {@code hipIpcOpenEventHandle}.
     */
    HIP_IPC("HIP IPC (hipIpcGetMemHandle)", 64, 64),
    /** Level Zero {@code zeMemGetIpcHandle} / {@code zeMemOpenIpcHandle}. */
    LEVEL_ZERO_IPC("Level Zero IPC (zeMemGetIpcHandle)", 64, 0),
    /** Vulkan {@code VK_KHR_external_memory_fd}: an opaque file descriptor of the device memory. */
    VULKAN_FD("Vulkan opaque fd (VK_KHR_external_memory_fd)", 0, 0);

    private final String description;
    private final int handleBytes;
    private final int eventHandleBytes;

    IpcMechanism(String description, int handleBytes, int eventHandleBytes) {
        this.description = description;
        this.handleBytes = handleBytes;
        this.eventHandleBytes = eventHandleBytes;
    }

    /** {@return what a user is shown, for example {@code "CUDA IPC (cuIpcGetMemHandle)"}} */
    public String description() {
        return description;
    }

    /** {@return the size of the opaque handle the driver gives, or 0 where the handle is a file descriptor or there is none} */
    public int handleBytes() {
        return handleBytes;
    }

    /**
     * {@return the size of the opaque event handle the driver gives with this mechanism ({@code CUipcEventHandle},
     * {@code hipIpcEventHandle_t}), or 0 where the mechanism carries no events}
     */
    public int eventHandleBytes() {
        return eventHandleBytes;
    }
}
