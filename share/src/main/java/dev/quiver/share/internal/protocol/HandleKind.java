package dev.quiver.share.internal.protocol;

/**
 * How a batch's memory travels (docs/SHARING.md, "Handle kinds"). Version 1 implements {@link #MEMFD}; the
 * other codes are reserved so that backends add their mechanism without a new message layout.
 */
public enum HandleKind {
    /** Host memory in a memory file, its descriptor passed with {@code SCM_RIGHTS}; payload empty. */
    MEMFD(1),
    /** Reserved: a {@code CUipcMemHandle} (64 bytes) of {@code cuIpcGetMemHandle}. */
    CUDA_IPC(2),
    /** Reserved: a POSIX descriptor of {@code cuMemExportToShareableHandle}. */
    CUDA_FD(3),
    /** Reserved: a {@code hipIpcMemHandle_t} (64 bytes). */
    HIP_IPC(4),
    /** Reserved: a Level Zero {@code ze_ipc_mem_handle_t} (64 bytes). */
    LEVEL_ZERO_IPC(5),
    /** Reserved: a descriptor of {@code VK_KHR_external_memory_fd}. */
    VULKAN_FD(6);

    private final int wire;

    HandleKind(int wire) {
        this.wire = wire;
    }

    /** {@return the kind code on the wire} */
    public int wire() {
        return wire;
    }

    /** {@return the bit of this kind in HELLO's handle-kinds mask} */
    public int bit() {
        return 1 << wire;
    }

    /**
     * {@return the kind of a wire code}
     * @param wire the code
     * @throws ProtocolException naming the code if no kind has it
     */
    public static HandleKind of(int wire) {
        for (HandleKind kind : values()) {
            if (kind.wire == wire) {
                return kind;
            }
        }
        throw new ProtocolException(ErrorCode.HANDLE_KIND, "unknown handle kind " + wire);
    }
}
