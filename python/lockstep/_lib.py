"""ctypes declarations of liblockstep.so: the run calls (lockstep/run.h) and what a result reads
from a context (lockstep/lockstep.h). The library is LOCKSTEP_LIBRARY when set (a path), else
the installed liblockstep.so.0."""
import ctypes
import ctypes.util
import os

c_uint_p = ctypes.POINTER(ctypes.c_uint)
c_double_p = ctypes.POINTER(ctypes.c_double)


class ShardModel(ctypes.Structure):
    _fields_ = [("label", ctypes.c_char_p), ("name", ctypes.c_char_p), ("collection", ctypes.c_int)]


# enum VmafPixelFormat, enum VmafOutputFormat, enum VmafPoolingMethod
PIX_FMT = {"420": 1, "422": 2, "444": 3, "400": 4}
OUTPUT_FORMAT = {"xml": 1, "json": 2, "csv": 3, "sub": 4}
POOL_METHODS = (("min", 1), ("max", 2), ("mean", 3), ("harmonic_mean", 4))

_SIGNATURES = {
    "lockstep_run_open": (ctypes.c_int, [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_char_p)]),
    "lockstep_run_open_frames": (ctypes.c_int, [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                                                ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                                ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]),
    "lockstep_run_count_frames": (ctypes.c_int, [ctypes.c_void_p, c_uint_p]),
    "lockstep_run_files": (ctypes.c_int, [ctypes.c_void_p]),
    "lockstep_run_read_frame": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p * 3,
                                               ctypes.c_ssize_t * 3, ctypes.c_void_p * 3,
                                               ctypes.c_ssize_t * 3]),
    "lockstep_run_finish": (ctypes.c_int, [ctypes.c_void_p]),
    "lockstep_run_error": (ctypes.c_char_p, [ctypes.c_void_p]),
    "lockstep_run_context": (ctypes.c_void_p, [ctypes.c_void_p]),
    "lockstep_run_model_count": (ctypes.c_uint, [ctypes.c_void_p]),
    "lockstep_run_model_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint,
                                               ctypes.POINTER(ShardModel)]),
    "lockstep_run_close": (None, [ctypes.c_void_p]),
    "lockstep_merge_shards": (ctypes.c_int, [ctypes.POINTER(ctypes.c_void_p),
                                             ctypes.POINTER(ctypes.c_char_p), ctypes.c_uint]),
    "lockstep_model_count": (ctypes.c_uint, [ctypes.c_void_p]),
    "lockstep_model_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint,
                                           ctypes.POINTER(ShardModel)]),
    "lockstep_last_error": (ctypes.c_char_p, []),
    "lockstep_feature_count": (ctypes.c_uint, [ctypes.c_void_p]),
    "lockstep_feature_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_uint]),
    "lockstep_output_name": (ctypes.c_char_p, [ctypes.c_char_p]),
    "lockstep_report_frames": (ctypes.c_uint, [ctypes.c_void_p, c_uint_p, ctypes.c_uint]),
    "lockstep_report_pooled": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                              c_double_p]),
    "lockstep_aggregate_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_uint]),
    "lockstep_aggregate_score": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, c_double_p]),
    "vmaf_feature_score_at_index": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, c_double_p,
                                                   ctypes.c_uint]),
    "vmaf_write_output_with_format": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                     ctypes.c_int, ctypes.c_char_p]),
    "lockstep_precision_format": (ctypes.c_char_p, [ctypes.c_char_p]),
    "vmaf_close": (ctypes.c_int, [ctypes.c_void_p]),
    "vmaf_version": (ctypes.c_char_p, []),
}

_lib = None


def lib():
    """The loaded library, its functions declared (loaded on first use)."""
    global _lib
    if _lib is None:
        path = os.environ.get("LOCKSTEP_LIBRARY") or ctypes.util.find_library("lockstep") \
            or "liblockstep.so.0"
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            raise OSError("lockstep: cannot load %s (%s): install lockstep (cmake --install) or "
                          "set LOCKSTEP_LIBRARY to the path of liblockstep.so" % (path, e)) from e
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(handle, name)
            fn.restype, fn.argtypes = restype, argtypes
        _lib = handle
    return _lib


def text(b):
    return b.decode("utf-8", "replace") if b is not None else None


def argv(args):
    arr = (ctypes.c_char_p * (len(args) + 1))(*[os.fsencode(a) for a in args], None)
    return len(args), arr
