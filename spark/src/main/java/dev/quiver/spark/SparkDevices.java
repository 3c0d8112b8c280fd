package dev.quiver.spark;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The Quiver {@link Device}s Spark assigned to the running task: the addresses of a named resource
 * ({@code TaskContext.get().resources()}), each turned into a device of any backend.
 *
 * <p><b>Addresses.</b> An address is {@code TYPE:ID} ({@code "opencl:0"}, {@code "vulkan:1"}, in the device names of
 * {@code quiver devices}), or a device id ({@code "0"}) where the caller names the type. The discovery script
 * {@code quiver devices --spark-resource NAME [--type TYPE]} prints the first form without a type and the second with
 * one.
 *
 * <p><b>Ownership and threading.</b> Stateless. The devices returned belong to the registry they were found in (the
 * system's by default) and are not closed by the caller. Call {@link #assigned(String)} on a task's thread (where
 * {@link TaskContext#get()} is the task's); {@link #of} from any thread.
 */
public final class SparkDevices {
    private SparkDevices() {}

    /**
     * {@return the devices of the running task's resource {@code resource}, in the order Spark lists its addresses}
     * Each address is {@code TYPE:ID}.
     *
     * @param resource the resource's name, as in {@code spark.task.resource.NAME.amount}
     * @throws IllegalStateException    if this thread runs no Spark task, or the task has no such resource
     * @throws IllegalArgumentException if an address names no device of this machine, or is not {@code TYPE:ID}
     */
    public static List<Device> assigned(String resource) {
        return of(resource, addresses(resource), null, Devices.system());
    }

    /**
     * {@return the devices of the running task's resource {@code resource}, whose addresses are ids of {@code type} or
     * {@code TYPE:ID}}
     *
     * @param resource the resource's name
     * @param type     the type of the devices whose addresses are plain ids
     * @throws IllegalStateException    if this thread runs no Spark task, or the task has no such resource
     * @throws IllegalArgumentException if an address names no device of this machine
     */
    public static List<Device> assigned(String resource, DeviceType type) {
        return of(resource, addresses(resource), Objects.requireNonNull(type, "type"), Devices.system());
    }

    /**
     * {@return the running task's addresses of {@code resource}, as Spark lists them}
     * @param resource the resource's name
     * @throws IllegalStateException if this thread runs no Spark task, or the task has no such resource
     */
    public static List<String> addresses(String resource) {
        Objects.requireNonNull(resource, "resource");
        TaskContext task = TaskContext.get();
        if (task == null) {
            throw new IllegalStateException("no Spark task runs on this thread (" + Thread.currentThread().getName()
                    + "): the devices of resource " + resource + " are assigned to tasks");
        }
        ResourceInformation info = task.resourcesJMap().get(resource);
        if (info == null) {
            throw new IllegalStateException("task " + task.taskAttemptId() + " (stage " + task.stageId() + ", partition "
                    + task.partitionId() + ") has no resource " + resource + "; it has " + task.resourcesJMap().keySet()
                    + " (give the job spark.task.resource." + resource + ".amount and spark.executor.resource." + resource
                    + ".amount with a discovery script)");
        }
        return List.of(info.addresses());
    }

    /**
     * {@return the devices {@code addresses} name}
     * @param resource  the resource's name, for messages
     * @param addresses {@code TYPE:ID}, or ids of {@code type}
     * @param type      the type of plain ids, or null if every address says its type
     * @param devices   where the devices are found
     * @throws IllegalArgumentException if an address names no device in {@code devices}, naming the resource and the address
     */
    public static List<Device> of(String resource, List<String> addresses, DeviceType type, Devices devices) {
        List<Device> out = new ArrayList<>(addresses.size());
        for (String address : addresses) {
            out.add(device(resource, address, type, devices));
        }
        return List.copyOf(out);
    }

    private static Device device(String resource, String address, DeviceType given, Devices devices) {
        String name = address.strip();
        if (!name.contains(":")) {
            if (given == null) {
                throw new IllegalArgumentException("resource " + resource + ", address " + address
                        + ": a plain id needs its device type (SparkDevices.assigned(resource, type)), or write addresses as TYPE:ID");
            }
            name = given.name() + ":" + name;
        }
        try {
            return devices.named(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resource " + resource + ", address " + address + ": " + e.getMessage(), e);
        }
    }
}
