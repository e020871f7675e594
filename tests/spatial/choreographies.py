"""Hand-written spatial programs more than one test module runs (the token semantics, the
structural rules): each written once, here."""

# Three sites: one load read into a group, barrier and multicast to two receivers.
MULTICAST = """\
spatial bcast: Schoreographed {
    tensor X: i32[8, 8] input
    tensor Y0: i32[8, 8] output
    tensor Y1: i32[8, 1] output
    stream x0: i32
    stream x1: i32
    stream y0: i32
    stream y1: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x0, x1
    compute sc scale 2 (x0) -> y0
    compute sm sum axis 1 (x1) -> y1
    store stY0 y0 -> Y0[i, 0] tile [2, 8] for i in 0..4
    store stY1 y1 -> Y1[i, 0] tile [2, 1] for i in 0..4
    place ldX (0, 0) reader
    place sc (0, 1) compute
    place stY0 (0, 1) writer
    place sm (1, 0) compute
    place stY1 (1, 0) writer
    buffer x0 (0, 1) depth 2 bytes 128
    buffer x1 (1, 0) depth 2 bytes 128
    buffer y0 (0, 1) depth 2 bytes 128
    buffer y1 (1, 0) depth 2 bytes 32
    group g ldX -> x0, x1
    handshake x0 barrier credit x0_credit data x0_data
    handshake x1 barrier credit x1_credit data x1_data
    handshake y0 fifo
    handshake y1 fifo
    semaphore x0_credit (0, 0) initial 2
    semaphore x0_data (0, 1) initial 0
    semaphore x1_credit (0, 0) initial 2
    semaphore x1_data (1, 0) initial 0
    schedule (0, 0) reader {
        repeat 4 {
            barrier g
            read ldX g
            multicast g 1
            signal x0_data 1
            signal x1_data 1
        }
    }
    schedule (0, 1) compute {
        repeat 4 {
            wait x0_data 1
            reserve y0 1
            fire sc
            push y0 1
            pop x0 1
            signal x0_credit 1
        }
    }
    schedule (0, 1) writer {
        repeat 4 {
            wait_front y0 1
            write y0 stY0
            pop y0 1
        }
    }
    schedule (1, 0) compute {
        repeat 4 {
            wait x1_data 1
            reserve y1 1
            fire sm
            push y1 1
            pop x1 1
            signal x1_credit 1
        }
    }
    schedule (1, 0) writer {
        repeat 4 {
            wait_front y1 1
            write y1 stY1
            pop y1 1
        }
    }
}
"""


# MULTICAST as the lane makes it for a target whose compute engines do not touch semaphores
# (wormhole): each receiver's reader relays its token into a fifo its compute reads.
MULTICAST_RELAYED = """\
spatial bcast: Schoreographed {
    tensor X: i32[8, 8] input
    tensor Y0: i32[8, 8] output
    tensor Y1: i32[8, 1] output
    stream x0: i32
    stream x0_in: i32
    stream x1: i32
    stream x1_in: i32
    stream y0: i32
    stream y1: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x0, x1
    scalar relay_x0_in(t: x0) = t -> x0_in
    compute sc scale 2 (x0_in) -> y0
    scalar relay_x1_in(t: x1) = t -> x1_in
    compute sm sum axis 1 (x1_in) -> y1
    store stY0 y0 -> Y0[i, 0] tile [2, 8] for i in 0..4
    store stY1 y1 -> Y1[i, 0] tile [2, 1] for i in 0..4
    place ldX (0, 0) reader
    place relay_x0_in (0, 1) reader
    place sc (0, 1) compute
    place stY0 (0, 1) writer
    place relay_x1_in (1, 0) reader
    place sm (1, 0) compute
    place stY1 (1, 0) writer
    buffer x0 (0, 1) depth 2 bytes 128
    buffer x0_in (0, 1) depth 2 bytes 128
    buffer x1 (1, 0) depth 2 bytes 128
    buffer x1_in (1, 0) depth 2 bytes 128
    buffer y0 (0, 1) depth 2 bytes 128
    buffer y1 (1, 0) depth 2 bytes 32
    group g ldX -> x0, x1
    handshake x0 barrier credit x0_credit data x0_data
    handshake x0_in fifo
    handshake x1 barrier credit x1_credit data x1_data
    handshake x1_in fifo
    handshake y0 fifo
    handshake y1 fifo
    semaphore x0_credit (0, 0) initial 2
    semaphore x0_data (0, 1) initial 0
    semaphore x1_credit (0, 0) initial 2
    semaphore x1_data (1, 0) initial 0
    schedule (0, 0) reader {
        repeat 4 {
            barrier g
            read ldX g
            multicast g 1
            signal x0_data 1
            signal x1_data 1
        }
    }
    schedule (0, 1) reader {
        repeat 4 {
            wait x0_data 1
            reserve x0_in 1
            fire relay_x0_in
            push x0_in 1
            pop x0 1
            signal x0_credit 1
        }
    }
    schedule (0, 1) compute {
        repeat 4 {
            wait_front x0_in 1
            reserve y0 1
            fire sc
            push y0 1
            pop x0_in 1
        }
    }
    schedule (0, 1) writer {
        repeat 4 {
            wait_front y0 1
            write y0 stY0
            pop y0 1
        }
    }
    schedule (1, 0) reader {
        repeat 4 {
            wait x1_data 1
            reserve x1_in 1
            fire relay_x1_in
            push x1_in 1
            pop x1 1
            signal x1_credit 1
        }
    }
    schedule (1, 0) compute {
        repeat 4 {
            wait_front x1_in 1
            reserve y1 1
            fire sm
            push y1 1
            pop x1_in 1
        }
    }
    schedule (1, 0) writer {
        repeat 4 {
            wait_front y1 1
            write y1 stY1
            pop y1 1
        }
    }
}
"""

# One site; the compute engine hosts two stages, and `s` takes two tokens per firing.
FIFO_CHAIN = """\
spatial chain: Shandshaked {
    tensor X: i32[8, 8] input
    tensor Y: i32[2, 8] output
    stream x: i32
    stream t: i32
    stream y: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x
    scalar tw(v: x) = v * 2 + 1 -> t
    compute s sum axis 0 (t x2) -> y
    store stY y -> Y[i, 0] tile [1, 8] for i in 0..2
    place ldX (0, 0) reader
    place tw (0, 0) compute
    place s (0, 0) compute
    place stY (0, 0) writer
    buffer x (0, 0) depth 2 bytes 128
    buffer t (0, 0) depth 2 bytes 128
    buffer y (0, 0) depth 1 bytes 32
    handshake x fifo
    handshake t fifo
    handshake y fifo
}
"""

# Two sites: a reader sends eight tiles through a semaphore pair of depth DEPTH to a
# compute engine, whose fifo feeds the writer (the clock's and the timed oracle's tests).
PIPE = """\
spatial pipe: Schoreographed {
    tensor X: i32[16, 8] input
    tensor Y: i32[16, 8] output
    stream x: i32
    stream y: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..8 -> x
    compute sc scale 3 (x) -> y
    store stY y -> Y[i, 0] tile [2, 8] for i in 0..8
    place ldX (0, 0) reader
    place sc (0, 1) compute
    place stY (0, 1) writer
    buffer x (0, 1) depth DEPTH bytes 128
    buffer y (0, 1) depth 2 bytes 128
    handshake x semaphore_pair credit x_credit data x_data
    handshake y fifo
    semaphore x_credit (0, 0) initial DEPTH
    semaphore x_data (0, 1) initial 0
    schedule (0, 0) reader {
        repeat 8 {
            wait x_credit 1
            read ldX x
            send x 1
            signal x_data 1
        }
    }
    schedule (0, 1) compute {
        repeat 8 {
            wait x_data 1
            reserve y 1
            fire sc
            push y 1
            pop x 1
            signal x_credit 1
        }
    }
    schedule (0, 1) writer {
        repeat 8 {
            wait_front y 1
            write y stY
            pop y 1
        }
    }
}
"""


# Two loads share the reader engine; the matmul takes two tokens of each per firing.
VALID_READY = """\
spatial link: Shandshaked {
    tensor A: i32[8, 8] input
    tensor B: i32[8, 4] input
    tensor C: i32[8, 4] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ldA A[i, k] tile [4, 4] for i in 0..2, k in 0..2 -> a
    load ldB B[k, 0] tile [4, 4] for i in 0..2, k in 0..2 -> b
    compute mm matmul_acc(a x2, b x2) -> c
    store stC c -> C[i, 0] tile [4, 4] for i in 0..2
    place ldA (0, 0) reader
    place ldB (0, 0) reader
    place mm (0, 1) compute
    place stC (0, 1) writer
    buffer a (0, 1) depth 2 bytes 128
    buffer b (0, 1) depth 2 bytes 128
    buffer c (0, 1) depth 1 bytes 64
    handshake a valid_ready
    handshake b valid_ready
    handshake c fifo
}
"""
