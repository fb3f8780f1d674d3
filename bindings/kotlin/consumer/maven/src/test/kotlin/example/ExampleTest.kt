package example

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

class ExampleTest {
    @Test
    fun `the jar loads its own native library and a message round-trips`() {
        assertNull(System.getProperty("softchat.jni.path"), "the consumer must not name the library")
        assertEquals("hello from a consumer", roundTrip("hello from a consumer"))
    }
}
