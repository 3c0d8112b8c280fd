package dev.quiver.share.internal.protocol;

import dev.quiver.spi.IpcMechanism;

import java.util.Optional;

/**
 * How a batch's memory travels (docs/SHARING.md, "Handle kinds"). {@link #MEMFD} carries host memory;
 * {@link #CUDA_IPC}, {@link #HIP_IPC} and {@link #LEVEL_ZERO_IPC} carry device memory as the driver's handle
 * bytes of its allocation, {@link #VULKAN_FD} as the driver's file descriptor of it ({@link #of(IpcMechanism)});
 * {@link #CUDA_FD} is reserved so that its backend adds it without a new message layout. Immutable.
 */
public enum HandleKind {
    /** Host memory in a memory file, its descriptor passed with {@code SCM_RIGHTS}; payload empty. */
    MEMFD(1),
    /** A {@code CUipcMemHandle} (64 bytes) of {@code cuIpcGetMemHandle}. */
    CUDA_IPC(2),
    /** Reserved: a POSIX descriptor of {@code cuMemExportToShareableHandle}. */
    CUDA_FD(3),
    /** A {@code hipIpcMemHandle_t} (64 bytes) of {@code hipIpcGetMemHandle}. */
    HIP_IPC(4),
    /** A Level Zero {@code ze_ipc_mem_handle_t} (64 bytes) of {@code zeMemGetIpcHandle}. */
    LEVEL_ZERO_IPC(5),
    /** An opaque file descriptor of {@code VK_KHR_external_memory_fd}, passed with {@code SCM_RIGHTS}; payload empty. */
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

    /**
     * {@return the kind that carries device memory of a backend's inter-process mechanism, where this protocol
     * implements one}
     * @param mechanism the backend's mechanism
     */
    public static Optional<HandleKind> of(IpcMechanism mechanism) {
        return Optional.ofNullable(switch (mechanism) {
            case CUDA_IPC -> CUDA_IPC;
            case HIP_IPC -> HIP_IPC;
            case LEVEL_ZERO_IPC -> LEVEL_ZERO_IPC;
            case VULKAN_FD -> VULKAN_FD;
            default -> null;
        });
    }

    /**
     * {@return whether every buffer in memory of this kind lies at offset 0 of its handle: the receiver reaches the
     * memory through a handle of its own over all of it (a {@code VkBuffer}), on which no offset can be added}
     */
    public boolean buffersAtStart() {
        return this == VULKAN_FD;
    }

    /** {@return whether a handle of this kind that introduces its memory travels with a file descriptor} */
    public boolean carriesDescriptor() {
        return this == MEMFD || this == CUDA_FD || this == VULKAN_FD;
    }

    /** {@return the backend mechanism whose handles this kind carries, or {@link IpcMechanism#NONE} for host memory} */
    public IpcMechanism mechanism() {
        return switch (this) {
            case CUDA_IPC -> IpcMechanism.CUDA_IPC;
            case HIP_IPC -> IpcMechanism.HIP_IPC;
            case LEVEL_ZERO_IPC -> IpcMechanism.LEVEL_ZERO_IPC;
            case CUDA_FD -> IpcMechanism.CUDA_FD;
            case VULKAN_FD -> IpcMechanism.VULKAN_FD;
            case MEMFD -> IpcMechanism.MEMFD;
        };
    }
}
