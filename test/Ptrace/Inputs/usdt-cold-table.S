/* A switch whose jump table (offsets from the table, as gcc's
 * position-independent switches have them) sends one case into another
 * function's part: pick.cold, a part with an FDE (and here a symbol) of
 * its own, as gcc splits unlikely code into `.cold` parts. A USDT note's
 * nop starts pick.cold, and the table's entry for case 1 is the byte right
 * behind it: a jump there would be entered in its middle. Nothing in
 * pick.cold shows that entry; only pick's table does. */
#include <sys/sdt.h>
	.text
	.globl pick
	.type pick,@function
pick:
	.cfi_startproc
	andl $3, %edi
	leaq table(%rip), %rdx
	movslq (%rdx,%rdi,4), %rax
	addq %rdx, %rax
	jmp *%rax
case0:
	movl $10, %eax
	ret
	.cfi_endproc
	.size pick, .-pick

	.section .text.unlikely,"ax",@progbits
	.type pick.cold,@function
pick.cold:
	.cfi_startproc
	STAP_PROBE1(demo, cold, %rdi)
case1:
	movl $11, %eax
	ret
case2:
	movl $12, %eax
	ret
	.cfi_endproc
	.size pick.cold, .-pick.cold

	.section .rodata
	.align 4
table:
	.long case0-table
	.long case1-table
	.long case2-table
	.long pick.cold-table
	.section .note.GNU-stack,"",@progbits
