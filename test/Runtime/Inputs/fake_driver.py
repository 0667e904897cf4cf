"""The GPU runtime under test and the stand-in driver (fake-cuda-driver.c,
found as libcuda.so.1 through LD_LIBRARY_PATH), the runtime initialized
against it: what every test of this directory starts with."""
import ctypes


def load_runtime(path):
    """(runtime, driver) after gather_gpu_init; prints "init: ok" or why
    it failed."""
    lib = ctypes.CDLL(path)
    fake = ctypes.CDLL("libcuda.so.1")
    message = ctypes.create_string_buffer(512)
    rc = lib.gather_gpu_init(message, ctypes.c_size_t(len(message)))
    print("init: ok" if rc == 0 else f"init: failed: {message.value.decode()}")
    return lib, fake
