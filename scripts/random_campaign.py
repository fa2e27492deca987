#!/usr/bin/env python3
"""A long randomized differential campaign: thousands of generated programs.

    scripts/random_campaign.py [--first SEED] [--count N] [--minutes M]
                               [--jobs J] [--out DIR]

Each seed picks a generator (lit-tests/random/gen_constructs.py for two
seeds in three, gen_forkjoin.py for the rest), an optimisation level
(-O0 to -O3), an LLVM (19, and 22 where build-llvm22/ is built), and for a
share of the seeds AddressSanitizer (one in eight), -mavx2 (one in four,
where the processor has AVX2) and -g (one in five); one in ten is built
for the race detector (--weft-race), and must report no race. The program is compiled as its serial
elision by plain clang of the same LLVM and by Weft, and Weft's binary must
print what the serial one prints at P=1, 2, 3, 4 and 8, each with and
without WEFT_STRESS=1, within a time limit. Everything else is a finding:
a refusal or crash of the compiler, a crash, a hang, or another output.

A failure that the serial elision built by plain clang with the same flags
shows too is counted apart, as `upstream`: a bug of Clang or LLVM. Results
go to DIR/results.jsonl (one line a program), the programs that failed stay
in DIR with the commands that reproduce them, and the summary
counts them by generator, LLVM, level and sanitizer. It stops after N
programs or M minutes, whichever comes first, and exits 1 if any failed.
Not part of the test command: `scripts/test.sh` runs a few seeds of each
generator (lit-tests/random/*.test); this runs as many as one has time for.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANDOM = os.path.join(ROOT, 'lit-tests', 'random')
WORKERS = (1, 2, 3, 4, 8)
RUN_TIMEOUT = 60


def has_avx2():
    try:
        with open('/proc/cpuinfo') as f:
            return any(l.startswith('flags') and ' avx2' in l for l in f)
    except OSError:
        return False


def llvms():
    found = []
    for version, build in (('19', 'build'), ('22', 'build-llvm22')):
        if os.path.exists(os.path.join(ROOT, build, 'bin', 'weft-clang')):
            found.append((version, os.path.join(ROOT, build, 'bin')))
    return found


def config(seed, versions, avx2):
    """What seed `seed` is compiled with: a pure function of the seed."""
    gen = 'forkjoin' if seed % 3 == 2 else 'constructs'
    version, bindir = versions[(seed // 3) % len(versions)]
    opt = '-O%d' % ((seed // 7) % 4)
    flags = [opt]
    if seed % 8 == 5:
        flags = ['-O1', '-fsanitize=address']
    if avx2 and seed % 4 == 1:
        flags.append('-mavx2')
    if seed % 5 == 3:
        flags.append('-g')
    if seed % 10 == 9:
        flags = ['-O%d' % ((seed // 10) % 3), '-g', '--weft-race']
    return gen, version, bindir, flags


def run(cmd, env=None, timeout=RUN_TIMEOUT):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', '', ''


def upstream(serial_cmd, flags, work, expected):
    """Whether the serial elision built by plain clang with Weft's flags
    (not -O1) fails too: then the compiler itself is at fault (plain clang
    -O0 -mavx2 misaligns a 64-byte vector passed in memory after a VLA)."""
    cmd = serial_cmd[:2] + flags + serial_cmd[3:]
    cmd[-1] = os.path.join(work, 'serial-same-flags')
    code, _, _ = run(cmd, timeout=300)
    if code != 0:
        return False
    code, actual, _ = run([cmd[-1]])
    return code != 0 or actual != expected


def one(seed, versions, avx2, out):
    gen, version, bindir, flags = config(seed, versions, avx2)
    result = {'seed': seed, 'gen': gen, 'llvm': version, 'flags': ' '.join(flags)}
    script = os.path.join(RANDOM, 'gen_%s.py' % gen)
    code, program, err = run([sys.executable, script, '--seed', str(seed)])
    if code != 0:
        return dict(result, status='generator', detail=err[-2000:])
    lang = 'c++' if gen == 'forkjoin' or '<cstdio>' in program else 'c'
    result['lang'] = lang
    ext = 'cpp' if lang == 'c++' else 'c'
    std = '-std=c++17' if lang == 'c++' else '-std=gnu11'
    work = tempfile.mkdtemp(prefix='seed%d.' % seed, dir=out)
    src = os.path.join(work, 'p.' + ext)
    with open(src, 'w') as f:
        f.write(program)
    plain = '/usr/lib/llvm-%s/bin/%s' % (version, 'clang++' if lang == 'c++' else 'clang')
    weft = os.path.join(bindir, 'weft-clang++' if lang == 'c++' else 'weft-clang')
    serial_cmd = [plain, std, '-O1', '-w', '-I' + os.path.join(ROOT, 'include'),
                  src, '-o', os.path.join(work, 'serial')]
    weft_cmd = [weft, std, '-w'] + flags + [src, '-o', os.path.join(work, 'weft')]

    def keep(status, detail):
        with open(os.path.join(work, 'REPRODUCE'), 'w') as f:
            f.write(' '.join(serial_cmd) + '\n' + ' '.join(weft_cmd) + '\n' +
                    detail + '\n')
        return dict(result, status=status, dir=work, detail=detail[-2000:])

    code, _, err = run(serial_cmd, timeout=300)
    if code != 0:
        return keep('serial-compile', err)
    code, _, err = run(weft_cmd, timeout=300)
    if code != 0:
        return keep('weft-compile', err)
    code, expected, err = run([os.path.join(work, 'serial')])
    if code != 0:
        return keep('serial-run', '%s %s' % (code, err))
    if '--weft-race' in flags:
        # Serial, on one worker: the same output and no race reported,
        # since the generators' programs are race-free by construction.
        code, actual, err = run([os.path.join(work, 'weft')])
        last = err.strip().splitlines()[-1] if err.strip() else ''
        if code != 0 or actual != expected or last != 'weft-race: races found: 0':
            return keep('race-report', 'exit %s, %s\n%s' % (code, last, err[-1500:]))
        subprocess.run(['rm', '-rf', work])
        return dict(result, status='pass')
    for p in WORKERS:
        for stress in ('0', '1'):
            env = dict(os.environ, WEFT_NWORKERS=str(p), WEFT_STRESS=stress)
            code, actual, err = run([os.path.join(work, 'weft')], env=env)
            if code != 0 or actual != expected:
                what = 'P=%d WEFT_STRESS=%s exit %s' % (p, stress, code)
                if upstream(serial_cmd, flags, work, expected):
                    return keep('upstream', what + '\nplain clang with the '
                                'same flags fails too: a Clang or LLVM bug')
                return keep('timeout' if code == 'timeout' else
                            'crash' if code != 0 else 'mismatch',
                            what + '\n' + err[-1500:])
    subprocess.run(['rm', '-rf', work])
    return dict(result, status='pass')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--first', type=int, default=100000)
    ap.add_argument('--count', type=int, default=5000)
    ap.add_argument('--minutes', type=float, default=0)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--out', default='/tmp/weft-campaign')
    args = ap.parse_args()
    versions = llvms()
    if not versions:
        sys.exit('random_campaign: build Weft first (scripts/build.sh)')
    avx2 = has_avx2()
    os.makedirs(args.out, exist_ok=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    results = []
    log = open(os.path.join(args.out, 'results.jsonl'), 'a')
    from concurrent.futures import ThreadPoolExecutor, FIRST_COMPLETED, wait
    seeds = iter(range(args.first, args.first + args.count))
    with ThreadPoolExecutor(args.jobs) as pool:
        running = set()
        while True:
            while len(running) < args.jobs and (not deadline or time.time() < deadline):
                seed = next(seeds, None)
                if seed is None:
                    break
                running.add(pool.submit(one, seed, versions, avx2, args.out))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                r = fut.result()
                results.append(r)
                log.write(json.dumps(r) + '\n')
                log.flush()
                if r['status'] not in ('pass', 'upstream'):
                    print('FAIL seed %d (%s, %s, LLVM %s, %s): %s, kept in %s' % (
                        r['seed'], r['gen'], r.get('lang'), r['llvm'], r['flags'],
                        r['status'], r.get('dir')), flush=True)
    by = collections.Counter()
    for r in results:
        by[(r['gen'], r.get('lang'), r['llvm'], r['flags'], r['status'])] += 1
    print('random_campaign: by generator, language, LLVM, flags and status:')
    for key in sorted(by, key=str):
        print('  %-10s %-3s LLVM %s %-26s %-14s %d' % (key + (by[key],)))
    passed = sum(1 for r in results if r['status'] == 'pass')
    upstream_bugs = sum(1 for r in results if r['status'] == 'upstream')
    failed = len(results) - passed - upstream_bugs
    if upstream_bugs:
        print('random_campaign: %d programs also fail built by plain clang '
              'with the same flags (Clang or LLVM bugs)' % upstream_bugs)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
