package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the provider's probe answers, decided once per process: the opened devices if the full probe
 * ({@link VulkanProbe}) ran already; else, without validation, the devices the {@link VulkanSurvey} found,
 * each opened on first use ({@link DeferredVulkanDevice}); else, and whenever the survey cannot tell, the
 * full probe's answer with its reasons. Validation runs the full probe at once, so that its messenger sees
 * the instance from the start. Thread-safe.
 */
final class VulkanListing {
    private static ProbeResult listed;

    private VulkanListing() {}

    static synchronized ProbeResult result() {
        if (listed == null) {
            listed = list();
        }
        return listed;
    }

    private static ProbeResult list() {
        Optional<ProbeResult> opened = VulkanProbe.ifRun();
        if (opened.isPresent()) {
            return opened.get();
        }
        if (!ValidationLog.requested()) {
            Optional<List<SurveyedDevice>> found = VulkanSurvey.devices();
            if (found.isPresent()) {
                List<BackendDevice> devices = new ArrayList<>();
                for (int id = 0; id < found.get().size(); id++) {
                    devices.add(new DeferredVulkanDevice(found.get().get(id), id));
                }
                return ProbeResult.available(devices);
            }
        }
        return VulkanProbe.result();
    }
}
