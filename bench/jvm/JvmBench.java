// JvmBench — the JDK reference for codec-bench: the same payloads (dumped by
// `codec-bench --dump`), the same method (verify the round trip, warm-up
// iterations, then measured iterations of fixed length, ops/s per iteration),
// JDK classes only: java.util.Base64, HexFormat, CRC32C, Deflater/Inflater,
// GZIP streams.
//
// Usage: java JvmBench DIR WARMUP MEASURE ITER_MS JIT_MS CELL...
//   CELL = OP@FILE, OP one of base64, hex, crc32c, deflate:N, gzip.
//   The first cell of each OP warms up for at least JIT_MS (the JIT compiles
//   methods, so later cells of the same OP start from compiled code).
// Output: "#jdk VERSION VM", then one line per cell, tab-separated:
//   CELL  ok|failed  ENCODED_BYTES  ENC_OPS,ENC_OPS,...  DEC_OPS,DEC_OPS,...
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;

public final class JvmBench {
    interface Codec {
        byte[] encode(byte[] in) throws Exception;
        byte[] decode(byte[] in) throws Exception;
    }

    static long sink; // keeps results alive so the JIT cannot drop the work

    static Codec codecFor(String op, int inputLength) {
        if (op.equals("base64")) {
            Base64.Encoder e = Base64.getEncoder();
            Base64.Decoder d = Base64.getDecoder();
            return new Codec() {
                public byte[] encode(byte[] in) { return e.encode(in); }
                public byte[] decode(byte[] in) { return d.decode(in); }
            };
        }
        if (op.equals("hex")) {
            HexFormat h = HexFormat.of();
            return new Codec() {
                public byte[] encode(byte[] in) {
                    return h.formatHex(in).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                }
                public byte[] decode(byte[] in) {
                    return h.parseHex(new String(in, java.nio.charset.StandardCharsets.ISO_8859_1));
                }
            };
        }
        if (op.equals("crc32c")) {
            // the same work as a checksum trailer: copy, checksum, append 4 bytes
            return new Codec() {
                public byte[] encode(byte[] in) {
                    CRC32C c = new CRC32C();
                    c.update(in, 0, in.length);
                    byte[] out = Arrays.copyOf(in, in.length + 4);
                    int v = (int) c.getValue();
                    out[in.length] = (byte) (v >>> 24);
                    out[in.length + 1] = (byte) (v >>> 16);
                    out[in.length + 2] = (byte) (v >>> 8);
                    out[in.length + 3] = (byte) v;
                    return out;
                }
                public byte[] decode(byte[] in) throws Exception {
                    int n = in.length - 4;
                    CRC32C c = new CRC32C();
                    c.update(in, 0, n);
                    int v = ((in[n] & 0xff) << 24) | ((in[n + 1] & 0xff) << 16)
                            | ((in[n + 2] & 0xff) << 8) | (in[n + 3] & 0xff);
                    if (v != (int) c.getValue()) throw new Exception("checksum mismatch");
                    return Arrays.copyOf(in, n);
                }
            };
        }
        if (op.startsWith("deflate:")) {
            Deflater def = new Deflater(Integer.parseInt(op.substring(8)));
            Inflater inf = new Inflater();
            return new Codec() {
                byte[] buf = new byte[inputLength + inputLength / 2 + 1024];
                public byte[] encode(byte[] in) {
                    def.reset();
                    def.setInput(in);
                    def.finish();
                    int n = 0;
                    while (!def.finished()) {
                        if (n == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
                        n += def.deflate(buf, n, buf.length - n);
                    }
                    return Arrays.copyOf(buf, n);
                }
                public byte[] decode(byte[] in) throws DataFormatException {
                    inf.reset();
                    inf.setInput(in);
                    byte[] out = new byte[inputLength];
                    int n = 0;
                    while (!inf.finished()) {
                        if (n == out.length) out = Arrays.copyOf(out, out.length * 2 + 16);
                        int k = inf.inflate(out, n, out.length - n);
                        if (k == 0 && (inf.needsInput() || inf.needsDictionary()))
                            throw new DataFormatException("truncated");
                        n += k;
                    }
                    return n == out.length ? out : Arrays.copyOf(out, n);
                }
            };
        }
        if (op.equals("gzip")) {
            return new Codec() {
                public byte[] encode(byte[] in) throws IOException {
                    ByteArrayOutputStream bos = new ByteArrayOutputStream(in.length / 2 + 64);
                    try (GZIPOutputStream g = new GZIPOutputStream(bos)) {
                        g.write(in);
                    }
                    return bos.toByteArray();
                }
                public byte[] decode(byte[] in) throws IOException {
                    try (GZIPInputStream g = new GZIPInputStream(new ByteArrayInputStream(in))) {
                        return g.readAllBytes();
                    }
                }
            };
        }
        throw new IllegalArgumentException("unknown op " + op);
    }

    interface Op {
        void run() throws Exception;
    }

    static double iteration(Op op, long nanos) throws Exception {
        long total = 0, batch = 1;
        long start = System.nanoTime(), elapsed;
        for (;;) {
            for (long i = 0; i < batch; i++) op.run();
            total += batch;
            elapsed = System.nanoTime() - start;
            if (elapsed >= nanos) break;
            if (elapsed * 16 < nanos * (total / batch)) batch *= 2;
        }
        return total * 1e9 / elapsed;
    }

    static String measure(Op op, int warmup, long jitNanos, int measure, long nanos)
            throws Exception {
        long warmed = 0;
        for (int i = 0; i < warmup || warmed < jitNanos; i++) {
            long t = System.nanoTime();
            iteration(op, nanos);
            warmed += System.nanoTime() - t;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < measure; i++) {
            if (i > 0) sb.append(',');
            sb.append(String.format(java.util.Locale.ROOT, "%.1f", iteration(op, nanos)));
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int warmup = Integer.parseInt(args[1]);
        int measure = Integer.parseInt(args[2]);
        long nanos = Long.parseLong(args[3]) * 1_000_000L;
        long jitNanos = Long.parseLong(args[4]) * 1_000_000L;
        java.util.Set<String> warmedOps = new java.util.HashSet<>();
        System.out.println("#jdk\t" + System.getProperty("java.version") + "\t"
                + System.getProperty("java.vm.name"));
        for (int i = 5; i < args.length; i++) {
            String cell = args[i];
            int at = cell.indexOf('@');
            long jit = warmedOps.add(cell.substring(0, at)) ? jitNanos : 0;
            byte[] input = Files.readAllBytes(dir.resolve(cell.substring(at + 1)));
            Codec c = codecFor(cell.substring(0, at), input.length);
            byte[] encoded;
            try {
                encoded = c.encode(input);
                if (!Arrays.equals(c.decode(encoded), input)) throw new Exception("differs");
            } catch (Exception e) {
                System.out.println(cell + "\tfailed\t0\t\t");
                continue;
            }
            String enc = measure(() -> sink += c.encode(input).length, warmup, jit, measure, nanos);
            String dec = measure(() -> sink += c.decode(encoded).length, warmup, jit, measure, nanos);
            System.out.println(cell + "\tok\t" + encoded.length + "\t" + enc + "\t" + dec);
        }
        if (sink == 42) System.err.println();
    }
}
