package dev.quiver.types;

import dev.quiver.type.ArrowType;
import dev.quiver.type.FormatString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FormatStringTest {

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"n", "b", "c", "C", "s", "S", "i", "I", "l", "L", "e", "f", "g", "d:19,10", "d:9,2,32", "d:18,-3,64",
        "d:76,0,256", "w:0", "w:42", "z", "Z", "vz", "u", "U", "vu", "tdD", "tdm", "tts", "ttm", "ttu", "ttn", "tss:", "tsm:UTC",
        "tsu:Europe/Paris", "tsn:+07:30", "tDs", "tDm", "tDu", "tDn", "tiM", "tiD", "tin", "+l", "+L", "+w:3", "+vl", "+vL", "+s",
        "+m", "+us:", "+us:0,1,127", "+ud:5", "+r"})
    void parsesAndWritesEveryFormat(String format) {
        ArrowType type = FormatString.parse(format);
        assertEquals(format, FormatString.write(type));
        assertEquals(type, FormatString.parse(type.format()));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "x", "ii", "d:", "d:10", "d:1,2,3,4", "d:0,0", "d:10,2,48", "d:39,0,128", "d:a,b", "w:", "w:-1", "w:x",
        "+w:", "+w:-2", "tt", "ttx", "tsx:", "ts", "tD", "tix", "+u", "+ux:1", "+ud:1,1", "+us:128", "+us:-1", "+us:a", "v", "+v"})
    void rejectsMalformedFormatsNamingThem(String format) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FormatString.parse(format));
        assertTrue(e.getMessage().contains("\"" + format + "\""), e.getMessage());
    }
}
