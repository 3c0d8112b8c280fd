/**
 * Device memory as bytes, for the tensor protocols: moving bytes between any device and the host through the
 * SPI ({@link dev.quiver.internal.DeviceBytes}); whether a device type's pointers are addresses is the device
 * type's own fact ({@code DeviceTypeCodes.pointersAreAddresses}, {@code DeviceType.pointersAreAddresses()}). Its subpackages hold the rest of the
 * implementation, one job each: {@code abi} (the C ABI, the only place making restricted FFM calls),
 * {@code validate} (checking imported structs), {@code copy} (copying whole arrays between devices),
 * {@code tensor} (dense tensors of DLPack and the CUDA Array Interface), {@code backend} (the checks around
 * every backend, and the host device), {@code pool} (memory pools and stream order), {@code events} (JFR
 * events), {@code access} (the door to what the public classes keep package-private) and {@code bridge}
 * (the public types as the protocol packages need them). Not exported from the module; nothing here is API.
 */
package dev.quiver.internal;
