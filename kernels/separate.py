"""Separately compiled kernels: a call that does not link the callee's code into the caller.

Numba compiles every kernel as a library of its own and links into it the libraries of all
it calls, then optimises and emits machine code for the whole linked module again. A large
callee reached from many levels (Telefunken's meld solvers: about 60 s of compile of their
own, under ``go_out``, ``contract_melds``, ``legal_not_down``, ``legal_actions``, ``choose``
and ``play_chunk``) is optimised and emitted once per level above it.

``separate(kernel, sig)`` returns a function to call instead of ``kernel`` from other
kernels. The caller's code declares the callee under a fixed symbol name
(``cardsim.separate.<module>.<name>``) and calls it with numba's own calling convention;
it links nothing. The callee is compiled (or loaded from the cache) once, as the ordinary
dispatcher ``kernel`` for ``sig``, and its address is given to LLVM's symbol table
(``llvmlite.binding.add_symbol``) before any code that calls it is finalised: when a caller
is typed (a fresh compile), and, for a caller loaded from the cache, by the hook this module
installs on numba's code libraries (``install``), which registers every such symbol a
library declares before the library is finalised. A caller cached on disk therefore works in
a new process, and the cache stays valid (the call goes to whatever the callee's cached code
is; ``cardsim.kernels`` keys the whole cache on a digest of every kernel source).

The price is that LLVM cannot inline the callee into the caller or specialise it on the
caller's constants: use it for large callees only, whose call is a small part of their work.
"""
from __future__ import annotations

import llvmlite.binding as ll
from numba.core import cgutils
from numba.core.codegen import CPUCodeLibrary
from numba.extending import intrinsic

PREFIX = "cardsim.separate."
_TARGETS: dict = {}            # symbol -> (dispatcher, signature)
_READY: set = set()            # symbols whose address LLVM knows in this process


def symbol_of(kernel) -> str:
    f = kernel.py_func
    return f"{PREFIX}{f.__module__}.{f.__qualname__}"


def ensure(name: str) -> None:
    """Compile (or load) the callee of symbol ``name`` and give its address to LLVM."""
    if name in _READY:
        return
    kernel, sig = _TARGETS[name]
    kernel.compile(sig)
    cres = kernel.overloads[tuple(sig.args)]
    ll.add_symbol(name, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))
    _READY.add(name)


def separate(kernel, sig):
    """A stand-in for ``kernel`` (a ``jit.njit`` dispatcher) in other kernels, calling its
    compilation for ``sig`` (an explicit numba signature) without linking it in. Arguments
    are cast to ``sig``'s types (a constant to its plain type)."""
    name = symbol_of(kernel)
    if name in _TARGETS:
        raise ValueError(f"{name} is already separate")
    _TARGETS[name] = (kernel, sig)
    n = len(sig.args)

    def impl(args):
        ensure(name)

        def codegen(context, builder, actual, llargs):
            vals = [context.cast(builder, v, a, b) for v, a, b in zip(llargs, actual.args, sig.args)]
            fnty = context.call_conv.get_function_type(sig.return_type, sig.args)
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)
            status, res = context.call_conv.call_function(builder, fn, sig.return_type, sig.args, vals)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return res
        return sig.return_type(*args), codegen

    # numba's intrinsics take no *args: a typer of exactly n parameters
    params = ", ".join(f"a{i}" for i in range(n))
    scope = {"impl": impl}
    exec(f"def typer(typingctx, {params}):\n    return impl(({params}{',' if n == 1 else ''}))\n", scope)
    typer = scope["typer"]
    typer.__name__ = f"separate_{kernel.py_func.__name__}"
    return intrinsic(typer)


def install() -> bool:
    """Register the separate callees a code library declares before numba finalises it
    (a caller loaded from the cache is never typed in this process). Idempotent."""
    if getattr(CPUCodeLibrary._finalize_final_module, "_cardsim_separate", False):
        return True
    orig = CPUCodeLibrary._finalize_final_module

    def _finalize_final_module(self):
        for mod in (self._final_module, getattr(self, "_shared_module", None)):
            if mod is None:
                continue
            for fn in mod.functions:
                if fn.is_declaration and fn.name.startswith(PREFIX) and fn.name not in _READY:
                    ensure(fn.name)
        return orig(self)

    _finalize_final_module._cardsim_separate = True
    CPUCodeLibrary._finalize_final_module = _finalize_final_module
    return True
