WARNING|BUG|Oops|general protection fault|locking correctness validator|cut here|refcount_t|UBSAN|KASAN|KFENCE|detected stalls|blocked for more than
