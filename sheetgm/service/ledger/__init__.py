"""What the director workbook remembers: the journal of stages, the first-complete stamps and the Orders
archive's memories (``stamps``, ``checkmemo``), the verdicts on late changes, the director's Table tab and the
game lock held there."""
