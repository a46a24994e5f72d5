#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of switchboard-bridge (see fuzz/README.md).
#
#   bash fuzz/run.sh [--seconds N | --runs N] [--jobs-note TEXT] [TARGET ... | all]
#   bash fuzz/run.sh --ci [T]         every target's corpus replayed, then fuzzing within one
#                                     shared budget (FUZZ_CI_SECONDS in all, default 150),
#                                     fails on any crash or broken property
#   bash fuzz/run.sh --regress [T]    replays the committed corpus only (no fuzzing)
#   bash fuzz/run.sh --build [T]      builds only
#   bash fuzz/run.sh --list           the targets
#   --no-asan                         build and run without the address sanitizer
#
# Targets are compiled with swiftc directly (-sanitize=fuzzer,address) from the
# module sources they need, into .build/fuzz/; `swift build` is not involved.
# New inputs found go to .build/fuzz/corpus/TARGET (the committed seeds in
# fuzz/corpus/TARGET are only read); crashes to .build/fuzz/artifacts/TARGET/.
# Each run's final figures are appended to .build/fuzz/runs.log.
set -euo pipefail
cd "${FUZZ_ROOT:-$(dirname "$0")/..}"
ROOT=$PWD
OUT=$ROOT/.build/fuzz
# The Swift crash reporter can hang under the address sanitizer.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}

# target -> module it fuzzes (the target file is fuzz/targets/TARGET.swift).
declare -A MODULE=(
  [config]=BridgeCore [yaml]=BridgeCore [json]=BridgeCore [press]=BridgeCore
  [timestamp]=BridgeCore [http-date]=BridgeCore [retry-after]=BridgeCore [payload]=BridgeCore
  [sse]=CurlShell [http-response]=CurlShell [http-request]=HTTPServer [id-file]=BridgeCore [discovery]=BridgeCore [watch]=BridgeCore
  [unsafe-once]=BridgeCore [config-renders]=BridgeCore
  [cover-lock-reading]=BridgeCore [page]=BridgeCore [scenes]=BridgeCore
)
# target -> largest input, in bytes.
declare -A MAX_LEN=(
  [config]=4096 [yaml]=4096 [json]=4096 [press]=2048 [timestamp]=64 [http-date]=96 [retry-after]=160
  [payload]=2048 [sse]=4096 [http-response]=4096 [http-request]=12000 [id-file]=8192 [discovery]=8192 [watch]=2048
  [unsafe-once]=1024 [config-renders]=4096
  [cover-lock-reading]=2048 [page]=2048 [scenes]=1024
)
ALL_TARGETS=(config yaml json press timestamp http-date retry-after payload sse http-response http-request id-file discovery watch unsafe-once config-renders
             cover-lock-reading page scenes)
# What --ci runs (every target; leave out one whose known crash is being fixed elsewhere).
CI_TARGETS=("${ALL_TARGETS[@]}")

# target -> sources compiled into the target beside it (a property checked
# against the simulator's rules of the service; they import BridgeCore only).
declare -A EXTRA_SOURCES=(
  [config-renders]="Sources/AiviSim/Service/SwitchboardValidator.swift Sources/AiviSim/Service/SwitchboardTile.swift"
  [page]="Sources/AiviSim/Service/SimTimeFormat.swift" [scenes]="Sources/AiviSim/Service/SimTimeFormat.swift"
)

# module -> its sources for the fuzz build (CurlShell: only the pure SSE parser, on BridgeCore's StreamEvent,
# and the HTTP client's response reader, so no libcurl is needed).
module_sources() {
  case "$1" in
    BridgeCore) find Sources/BridgeCore -name '*.swift' | sort ;;
    HTTPServer) find Sources/HTTPServer -name '*.swift' | sort ;;
    ShellSupport) find Sources/ShellSupport -name '*.swift' | sort ;;
    CurlShell) printf '%s\n' Sources/CurlShell/SSEParser.swift Sources/CurlShell/ResponseHeadLine.swift Sources/CurlShell/HTTPResponseReader.swift Sources/CurlShell/ByteSearch.swift ;;
  esac
}

# module -> the modules it imports, built and linked before it.
declare -A MODULE_DEPS=([HTTPServer]=ShellSupport [CurlShell]=BridgeCore)

# --no-asan builds without the address sanitizer (about 3x faster; Swift's own
# checks still trap on overflow, bounds and unwrap), into separate folders.
SANITIZERS=fuzzer,address
SUFFIX=
# One package name for every module and target, as SwiftPM gives: `package` API
# (DurableRecord's init) is visible across them.
swiftc_flags() { echo -O -g -sanitize=$SANITIZERS -parse-as-library -swift-version 6 -package-name switchboard_bridge; }

log() { printf '[fuzz] %s\n' "$*" >&2; }

# Builds .build/fuzz/lib/MODULE/libMODULE.a (+ .swiftmodule) when a source is newer.
build_module() {
  local module=$1 dir=$OUT/lib$SUFFIX/$1
  local archive=$dir/lib$module.a deps=() built=() dep sources=()
  for dep in ${MODULE_DEPS[$module]:-}; do
    build_module "$dep"
    deps+=(-I "$OUT/lib$SUFFIX/$dep")
    built+=("$OUT/lib$SUFFIX/$dep/lib$dep.a")
  done
  mapfile -t sources < <(module_sources "$module")
  if [[ -f $archive ]] && [[ -z $(find "${sources[@]}" "${built[@]}" fuzz/run.sh -newer "$archive" -print -quit) ]]; then
    return
  fi
  log "building $module (${#sources[@]} files)"
  mkdir -p "$dir"
  swiftc $(swiftc_flags) -enable-testing -module-name "$module" "${deps[@]}" \
    -emit-module -emit-module-path "$dir/$module.swiftmodule" \
    -emit-library -static -o "$archive" "${sources[@]}"
}

build_target() {
  local target=$1 module=${MODULE[$1]} binary=$OUT/bin$SUFFIX/$1 lib=$OUT/lib$SUFFIX/${MODULE[$1]}
  local source=fuzz/targets/$target.swift support=(fuzz/targets/Support/FuzzInput.swift) extra=()
  [[ $module == BridgeCore ]] && support+=(fuzz/targets/Support/ExampleBridge.swift)
  [[ -n ${EXTRA_SOURCES[$target]:-} ]] && read -r -a extra <<<"${EXTRA_SOURCES[$target]}" && support+=("${extra[@]}")
  build_module "$module"
  if [[ -f $binary ]] && [[ -z $(find "$source" "${support[@]}" "$lib/lib$module.a" -newer "$binary" -print -quit) ]]; then
    return
  fi
  log "building target $target"
  mkdir -p "$OUT/bin$SUFFIX"
  local deps=() dep
  for dep in ${MODULE_DEPS[$module]:-}; do
    deps+=(-I "$OUT/lib$SUFFIX/$dep" -L "$OUT/lib$SUFFIX/$dep" -l"$dep")
  done
  swiftc $(swiftc_flags) -module-name "Fuzz_${target//-/_}" -I "$lib" -L "$lib" \
    -l"$module" "${deps[@]}" "$source" "${support[@]}" -o "$binary" 2> >(grep -v 'Cannot export local symbol' >&2)
}

# run_target TARGET LIMIT_FLAG...: fuzzes, prints the figures, fails on a crash.
run_target() {
  local target=$1; shift
  local work=$OUT/corpus/$target artifacts=$OUT/artifacts/$target/ logfile=$OUT/logs/$target.log
  mkdir -p "$work" "$artifacts" "$OUT/logs"
  local args=(-max_len="${MAX_LEN[$target]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$artifacts" "$@")
  [[ -f fuzz/dict/$target.dict ]] && args+=(-dict="fuzz/dict/$target.dict")
  local started=$SECONDS status=0
  log "running $target ${*}"
  nice -n 10 "$OUT/bin$SUFFIX/$target" "${args[@]}" "$work" "fuzz/corpus/$target" >"$logfile" 2>&1 || status=$?
  local elapsed=$((SECONDS - started))
  local runs cov ft corp
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -1)
  read -r cov ft corp < <(grep -E '^#[0-9]+' "$logfile" | tail -1 |
    sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+\/[0-9a-zA-Z]+).*/\1 \2 \3/') || true
  local line
  line=$(printf '%s\t%s\t%s\truns=%s\tseconds=%s\tcov=%s\tft=%s\tcorpus=%s\tstatus=%s' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$target" "$SANITIZERS" "${runs:-?}" "$elapsed" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status")
  echo "$line" | tee -a "$OUT/runs.log"
  if [[ $status -ne 0 ]]; then
    log "$target FAILED (exit $status); log: $logfile"
    grep -E 'ERROR|Fatal error|Test unit written|SUMMARY' "$logfile" | head -8 >&2 || true
    return 1
  fi
}

# run_within_shared_budget SECONDS TARGET...: each target replays its corpus (libFuzzer
# runs every input before it mutates, however short its time) and fuzzes for its share
# of what is left of SECONDS, so a target whose replay ran long takes from the others,
# not from CI: the stage costs about SECONDS plus the builds.
run_within_shared_budget() {
  local budget=$1; shift
  local left=$# started=$SECONDS t share
  for t in "$@"; do
    share=$(( (budget - (SECONDS - started)) / left ))
    (( share < 1 )) && share=1
    run_target "$t" -max_total_time="$share" || failed+=("$t")
    left=$((left - 1))
  done
  log "fuzzed $# targets in $((SECONDS - started)) s (budget $budget s)"
}

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

mode=fuzz
limit=(-max_total_time=60)
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --ci) mode=ci; shift ;;
    --no-asan) SANITIZERS=fuzzer; SUFFIX=-noasan; shift ;;
    --regress) mode=regress; shift ;;
    --build) mode=build; shift ;;
    --list) printf '%s\n' "${ALL_TARGETS[@]}"; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    all) targets+=("${ALL_TARGETS[@]}"); shift ;;
    -*) log "unknown option $1"; usage; exit 2 ;;
    *) [[ -n ${MODULE[$1]:-} ]] || { log "unknown target $1 (try --list)"; exit 2; }
       targets+=("$1"); shift ;;
  esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
  if [[ $mode == ci ]]; then targets=("${CI_TARGETS[@]}"); else targets=("${ALL_TARGETS[@]}"); fi
fi

# The config dictionary must know every key of the schema.
check_config_dictionary() {
  local key missing=()
  for key in $( (grep -o '"[a-z0-9_]*"' Sources/BridgeCore/Config/ConfigKeys.swift
                 grep -oE '^    case [a-zA-Z0-9]+( = "[a-z0-9_]+")?$' Sources/BridgeCore/Devices/Presets/DevicePreset.swift |
                   sed -E 's/.*"(.*)"/\1/; s/^ *case //') | tr -d '"' | sort -u); do
    grep -q "=\"$key:\"" fuzz/dict/config.dict || missing+=("$key")
  done
  [[ ${#missing[@]} -eq 0 ]] || log "warning: fuzz/dict/config.dict lacks schema keys: ${missing[*]}"
}

check_config_dictionary
for target in "${targets[@]}"; do build_target "$target"; done
failed=()
case "$mode" in
  build) exit 0 ;;
  regress) for t in "${targets[@]}"; do run_target "$t" -runs=0 || failed+=("$t"); done ;;
  ci) run_within_shared_budget "${FUZZ_CI_SECONDS:-150}" "${targets[@]}" ;;
  fuzz) for t in "${targets[@]}"; do run_target "$t" "${limit[@]}" || failed+=("$t"); done ;;
esac
if [[ ${#failed[@]} -gt 0 ]]; then
  log "crashed: ${failed[*]} (inputs in $OUT/artifacts/)"
  exit 1
fi
log "all ${#targets[@]} targets ran clean"
