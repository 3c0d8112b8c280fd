package dev.quiver.flight;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made by the JDK's {@code keytool}
 * in a temporary directory, written as the PEM files Flight's TLS takes: the certificate, and the private
 * key unencrypted in PKCS#8.
 *
 * @param certificate the certificate's PEM file (the server's chain, and what clients trust)
 * @param privateKey  the key's PEM file
 */
record TestCertificates(Path certificate, Path privateKey) {
    private static final char[] STORE_PASSWORD = "flight-test".toCharArray();

    /**
     * @param directory where the files go
     * @return the files
     */
    static TestCertificates create(Path directory) throws IOException, InterruptedException, GeneralSecurityException {
        Path store = directory.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", new String(STORE_PASSWORD), "-keypass", new String(STORE_PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, STORE_PASSWORD);
        }
        Key key = keys.getKey("server", STORE_PASSWORD);
        Certificate certificate = keys.getCertificate("server");
        TestCertificates files = new TestCertificates(directory.resolve("server.crt"), directory.resolve("server.key"));
        Files.writeString(files.certificate(), pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(files.privateKey(), pem("PRIVATE KEY", key.getEncoded()));
        return files;
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return String.join("\n", List.of("-----BEGIN " + type + "-----", body, "-----END " + type + "-----", ""));
    }
}
