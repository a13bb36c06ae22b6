"""Who gets a worker: this process's bounded pool (``pool``), and the deployment's count of waiting questions
(the contract in ``base``, kept in ``redis``)."""
