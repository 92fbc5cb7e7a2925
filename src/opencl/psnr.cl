/* psnr twin: integer SSE of each row of a plane (exact, so any order), one work-group per row.
 * The planes are packed (core/frame_pack.h): rows of w samples, bytes or 16-bit words, the
 * reference plane at ref_off and the distorted one at dis_off in `frame`. */

__kernel void ls_psnr_row_sse(__global const uchar *frame, ulong ref_off, ulong dis_off, uint w,
                              uint wide, __global ulong *row_sse, uint row_base)
{
    __local ulong red[LS_WG];
    const uint lid = get_local_id(0), y = get_group_id(0);
    ulong sum = 0;
    if (wide) {
        __global const ushort *r = (__global const ushort *)(frame + ref_off) + (ulong)y * w;
        __global const ushort *d = (__global const ushort *)(frame + dis_off) + (ulong)y * w;
        for (uint x = lid; x < w; x += LS_WG) {
            const uint e = (uint)((int)r[x] - (int)d[x]);
            sum += e * e; /* |e| < 2^16: the square is right modulo 2^32, hence exact */
        }
    } else {
        __global const uchar *r = frame + ref_off + (ulong)y * w;
        __global const uchar *d = frame + dis_off + (ulong)y * w;
        for (uint x = lid; x < w; x += LS_WG) {
            const uint e = (uint)((int)r[x] - (int)d[x]);
            sum += e * e;
        }
    }
    red[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = LS_WG / 2; step; step >>= 1) {
        if (lid < step)
            red[lid] += red[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!lid)
        row_sse[row_base + y] = red[0];
}
