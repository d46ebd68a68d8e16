"""The hand review (复盘) at the table: the reviewer, its Web Worker and its markup."""
