"""The names PyTorch's modules list in dir() that the engine's lack, and the engine's own helpers they do not: Python's
"Did you mean: '...'?" for a mistyped attribute (`torch.nn.Linaer`, `optim.Sgd`) picks the nearest name dir() offers,
so each public module's dir() is PyTorch's (see _missing_attributes_named_as_torch in __init__.py)."""

# module (as torch names it): (names only PyTorch has, names only the engine has)
NAMES = {
    'torch.nn': ("""
        Container DataParallel
        LinearCrossEntropyLoss LinearCrossEntropyOptions
        NLLLoss2d SyncBatchNorm _reduction common_types factory_kwargs grad intrinsic parallel qat
        quantizable quantized""",
        """
        F Iterable Mapping OptimizedModule OrderedDict Tensor _BatchNorm _ConstantPadNd _ConvNd _DictMethods
        _DropoutNd _Elementwise _IncompatibleKeys _Init _InplaceActivation _InstanceNorm _LazyConvNd _LazyNormBase
        _Loss _MaxPoolNd _MaxUnpoolNd _LPPoolNd _LazyConvTransposeNd _FractionalMaxPoolNd _ModuleSequence _AvgPoolNd
        _NormBase _NumberActivation _Numbered _WeightedLoss __dir__ __getattr__ _add_weight_and_bias _addindent
        _affine_parameters _as_parameter _attention _backward_hooks _drawn_ _dtypes _empty _factories _fan _fans
        _fill_ _fn _legacy_reduction _make_deprecate _modules_package _name _names _ntuple _ops_rnn _pad _adaptive
        _pairs _param_line _reset_affine _typename _views_changed _vision _where _zero_grad ag empty empty_like math
        namedtuple np operator randperm sys types user_stacklevel warnings where _ENGINE_MODULE_NAMES
        _TORCH_MODULE_NAMES _deprecated_class _tuple_parser consume_prefix_in_state_dict_if_present functools
        numbers _AdaptiveAvgPoolNd _has_uninitialized_params _CrossMapLRN2d _cross_map_lrn2d"""),
    'torch.nn.functional': ("""
        BroadcastingList1 BroadcastingList2 BroadcastingList3 Callable DType GRID_SAMPLE_INTERPOLATION_MODES
        GRID_SAMPLE_PADDING_MODES Optional ScalingType SwizzleType TYPE_CHECKING _Any _Reduction _VF
        _adaptive_max_pool1d _adaptive_max_pool2d _adaptive_max_pool3d _add_docstr _check_key_padding_mask
        _check_unpool_output_size _enum_list_as_int_list _expand_single_value _fractional_max_pool2d
        _fractional_max_pool3d _get_softmax_dim _in_projection _in_projection_packed _is_integer _jit_unused
        _list_or_empty _list_with_default _max_pool1d _max_pool2d _max_pool3d _mha_shape_check
        _no_grad_embedding_renorm_ _overload _pair _single _sym_int _triple _unpool_output_size _verify_spatial_size
        assert_int_or_pair boolean_dispatch conv_tbc dataclasses
        grad grouped_mm handle_torch_function has_torch_function
        has_torch_function_unary has_torch_function_variadic importlib linear_cross_entropy
        pdist reproducibility_notes
        scaled_grouped_mm scaled_mm sparse_support_notes tf32_notes torch""",
        """
        _RRELU_SIGNATURE __dir__ __getattr__ _alpha_dropout _apply_loss_reduction _argparse _autograd _dropout_mask
        _factories _feature_dropout _implicit_dim _leaky_relu _loss_reduction _name _ops _ops_conv _ops_math _ops_nn
        _ops_nn2 _ops_ctc _parse _parser_type _random _renorm_rows _rrelu_args _rrelu_bound _rrelu_call _tensor_input
        _torch_rrelu _unbatched_feature_dropout _warn_feature_dropout_dims logsumexp make _triplet_distances"""),
    'torch.autograd': ("""
        DeviceType NestedIOFunction ProfilerActivity ProfilerConfig ProfilerEvent ProfilerState SavedTensor Sequence
        _KinetoEvent _OptionalTensor _ProfilerResult _ShapeorNestedShape _TensorOrOptionalTensors
        _TensorOrTensorsOrGradEdge _add_metadata_json _calculate_shape _disable_profiler _disable_profiler_legacy
        _enable_profiler _enable_profiler_legacy _enable_record_function _engine_run_backward
        _force_original_view_tracking _get_sequence_nr _is_checkpoint_valid _is_kineto_stopped _kineto_step
        _pop_saved_tensors_default_hooks _prepare_profiler _profiler_enabled _push_saved_tensors_default_hooks
        _record_function_with_args_enter _record_function_with_args_exit _register_py_tensor_class_for_device
        _set_empty_test_observer _size _supported_activities _tensor_or_tensors_to_tuple _toggle_collection_dynamic
        _unsafe_preserve_version_counter _vmap_internals cast enforce_grad_layout_policy forward_ad
        handle_torch_function has_torch_function is_multithreading_enabled is_tensor_like is_view_replay_enabled
        kineto_available overload profiler profiler_legacy profiler_util set_multithreading_enabled torch""",
        """
        GradientEdge NamedTuple Node Optional Tensor VariableMeta _CREATE_GRAPH_WARNING _Package __dir__ __getattr__
        _ag _batched_grad _check_input _check_roots _flag _gradcheck _make _submodule _tensor _tuple
        _watch_inference_grads get_gradient_edge is_anomaly_check_nan_enabled is_anomaly_enabled np operator
        set_anomaly_enabled sys types"""),
    'torch.optim': ("""
        Muon SparseAdam __all__ _functional _muon _stateless
        swap_in_optimizer_params_and_state""",
        """
        Tensor __dir__ __getattr__ _add_ _add_scaled _addcdiv_ _average_square_ _bump _check _check_below
        _check_betas _check_fused _check_lr _cls _count_writes _cubic_minimum _file_module _fma _grad _lerp_
        _next_step _number _start _strong_wolfe _typename _views_changed _where _zero_grad ag defaultdict make math
        mul np sys types warnings _ENGINE_OPTIMIZER_NAMES _TORCH_OPTIMIZER_NAMES adadelta adagrad adam adamax adamw
        asgd lbfgs nadam optimizer radam rmsprop rprop sgd OrderedDict _add_hook _global_optimizer_post_hooks
        _global_optimizer_pre_hooks _hooked_step _or _register_optimizer_step_post_hook
        _register_optimizer_step_pre_hook chain wraps"""),
    'torch.nn.init': ("""
        Callable Literal ParamSpec Tensor TypeVar _FanMode _NonlinearityType _P _R __all__ __builtins__ __cached__
        __file__ _make_deprecate _no_grad_fill_ _no_grad_normal_ _no_grad_trunc_normal_ _no_grad_uniform_
        _no_grad_zero_ math torch warnings""",
        """
        __dir__ __getattr__"""),
    'torch.linalg': ("""
        __path__ _add_docstr _linalg _powsum common_notes cond eig eigvals ldl_factor
        ldl_factor_ex ldl_solve lstsq matrix_rank pinv""",
        """
        Tensor __dir__ __getattr__ _check_dtype _check_float _norm _over_last_two _wrap_dim dt math _chain_matmul
        _write_out warn_once _RESIZED_FIRST _out_form _out_grad_check _warn_resized functools"""),
    'torch.optim.lr_scheduler': ("""
        Any Literal Self SupportsFloat TYPE_CHECKING TypedDict _SchedulePhase __all__ _enable_get_lr_call
        _initial_mode _param_groups_val_list _to_scalar _update_param_group_val _warn_get_lr_called_within_step
        annotations cast inf override ref""",
        """
        _LambdaState _ORDER _OVERRIDDEN _Schedulers __dir__ __getattr__ _check_optimizer _cls _count_steps
        _init_momentum _lambdas _set _set_momentum _values sys weakref"""),
    'torch.utils.data': ("""
        DFIterDataPipe DataChunk DistributedSampler IterDataPipe MapDataPipe _DatasetKind __all__ _utils
        argument_validation datapipes distributed functional_datapipe get_worker_info graph graph_settings
        guaranteed_datapipes_determinism non_deterministic runtime_validation runtime_validation_disabled""",
        """
        Tensor _SingleProcessDataLoaderIter __dir__ __getattr__ _dict_like _factories _fetch _file_modules
        _int64_draw _positive bisect copy dt itertools math multinomial np numbers stack sys types warnings"""),
    'torch.nn.utils': ("""
        __all__ _named_member_accessor clip_grad convert_conv2d_weight_memory_format
        convert_conv3d_weight_memory_format convert_parameters fuse_conv_bn_eval fuse_conv_bn_weights
        fuse_linear_bn_eval fuse_linear_bn_weights fusion init memory_format remove_weight_norm skip_init stateless
        weight_norm""",
        """
        Tensor WeightNorm SpectralNorm __dir__ __getattr__ _as_list _factories _remove_hook ag cat stack types
        warnings"""),
    'torch.distributions': ("""
        AbsTransform AffineTransform Beta Binomial CatTransform Cauchy Chi2 ComposeTransform CorrCholeskyTransform
        CumulativeDistributionTransform Dirichlet ExpTransform Gamma Geometric Gumbel HalfNormal
        IndependentTransform LKJCholesky Laplace LogNormal LowerCholeskyTransform Multinomial MultivariateNormal
        Poisson PositiveDefiniteTransform PowerTransform ReshapeTransform SigmoidTransform SoftmaxTransform
        SoftplusTransform StackTransform StickBreakingTransform StudentT TanhTransform Transform
        TransformedDistribution Wishart beta biject_to binomial cauchy chi2 constraint_registry dirichlet gamma
        geometric gumbel half_normal identity_transform laplace lkj_cholesky log_normal
        multinomial multivariate_normal poisson studentT transform_to transformed_distribution transforms wishart""",
        """
        __dir__ __getattr__ _cls _kernels"""),
    'torch.special': ("""
        Tensor __all__ __path__ _add_docstr airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1 chebyshev_polynomial_t
        chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w common_args hermite_polynomial_h
        hermite_polynomial_he laguerre_polynomial_l legendre_polynomial_p modified_bessel_i0
        modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 multi_dim_common multigammaln
        scaled_modified_bessel_k0 scaled_modified_bessel_k1 shifted_chebyshev_polynomial_t
        shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v shifted_chebyshev_polynomial_w
        spherical_bessel_j0 torch zeta""",
        """
        Node SpecialEntrBackward0 _CALLS _KERNELS _SIGNATURES _UNARY __dir__ __getattr__ _add_scalar _argparse _entr
        _entr_np _misc _mul_scalar _ndtr _rounded _special_out _unary np special_erfcx special_i0e special_i1
        special_i1e special_log_ndtr special_ndtri"""),
    'torch.func': ("""
        __path__ debug_unwrap functionalize linearize rearrange replace_all_batch_norm_modules_ stack_module_state""",
        """
        AliasBackward0 Size Tensor TreeSpec _Level __dir__ __getattr__ _argnums _aux _basis _batch _broadcast _call
        _forward_tangents _function _grads _jacobian _lift_args _num_leaves _onehot _outputs _refusing_saved_hooks
        _split_aux _stack_outputs _swap _tie _tree_map ag disable_saved_tensors_hooks functools tree_flatten
        tree_unflatten"""),
    'torch.utils': ("""
        ThroughputBenchmark _appending_byte_serializer _config_module _content_store _contextlib _debug_mode
        _dtype_abbrs _exposed_in _foreach_utils _import_utils _inspect _mode_utils _ordered_set _osp
        _python_dispatch _pytree _stats _thunk _traceback _typing_utils backcompat backend_registration
        cmake_prefix_path collect_env copyreg cpp_backtrace deterministic dlpack
        generate_methods_for_privateuse1_backend get_cpp_backtrace rename_privateuse1_backend set_module
        swap_tensors throughput_benchmark torch weak weakref""",
        """
        __dir__ __getattr__"""),
    'torch.autograd.graph': ("""
        Any Callable Generator Iterable Iterator Literal MutableMapping NamedTuple Optional RemovableHandle Sequence
        TYPE_CHECKING TorchDispatchMode TypeAlias Union Variable WeakKeyDictionary WeakValueDictionary
        _CloneArgBeforeMutateMode _SID _TID __all__ __annotations__ _allow_mutation_on_saved_tensors_enabled
        _engine_run_backward _get_grad_fn_or_grad_acc _get_sid _get_tid _register_logging_hooks_on_whole_graph
        _swap_with_cloned cast contextlib contextvars defaultdict deque functools log logging
        region_activation_memory_budget set_override_stale_capture_stream
        set_warn_on_accumulate_grad_stream_mismatch threading torch""",
        """
        __dir__ __getattr__ _ag"""),
    'torch.nn.utils.parametrize': ("""
        OpaqueBase Sequence __all__ __annotations__ copyreg get_swap_module_params_on_conversion
        is_opaque_reference_type is_traceable_wrapper_subclass torch""",
        """
        __dir__ __getattr__ _check_result _deepcopy _getstate ag"""),
    'torch.nn.utils.parametrizations': ("""
        Tensor __all__ torch""",
        """
        __dir__ __getattr__ _transposed_conv_dim _weight_norm ag norm_except_dim"""),
}


# Public names of torch and of torch.Tensor in PyTorch 2.13 that the engine lacked when these lists were made (a name
# the engine has gained since never reaches a lookup here). An AttributeError or ImportError for one of them is the
# playground's gap, not the learner's typo: the page says so (see pytorch_has).
TORCH = frozenset("""
    AVG AcceleratorError AggregationType AliasDb AnyType Argument ArgumentSpec AwaitType BFloat16Storage
    BFloat16Tensor BenchmarkConfig BenchmarkExecutionStats Block BoolStorage BoolType BufferDict ByteStorage
    CallStack Capsule CharStorage ClassType Code CompilationUnit CompleteArgumentSpec ComplexDoubleStorage
    ComplexFloatStorage ComplexType ConcreteModuleType ConcreteModuleTypeBuilder DeepCopyMemoTable
    DeserializationStorageContext DeviceObjType DictType DisableTorchFunction DisableTorchFunctionSubclass
    DispatchKey DispatchKeySet DoubleStorage EnumType ErrorReport Event ExcludeDispatchKeyGuard ExecutionPlan
    FatalError FileCheck FloatStorage FloatType FunctionSchema Future FutureType GradScaler Gradient Graph
    GraphExecutorState HalfStorage IODescriptor InferredType IntStorage IntType InterfaceType JITException ListType
    LiteScriptModule LockingLogger LoggerBase LongStorage ModuleDict Node NoneType NoopLogger NumberType
    OperatorInfo OptionalType OutOfMemoryError PRIVATE_OPS ParameterDict PyObjectType PyTorchFileReader
    PyTorchFileWriter QInt32Storage QInt8Storage QUInt2x4Storage QUInt4x2Storage QUInt8Storage RRefType SUM
    ScriptClass ScriptClassFunction ScriptDict ScriptDictIterator ScriptDictKeyIterator ScriptFunction ScriptList
    ScriptListIterator ScriptMethod ScriptModule ScriptModuleSerializer ScriptObject ScriptObjectProperty
    SerializationStorageContext ShortStorage StaticModule Storage StorageBase Stream StreamObjType StringType
    SymBool SymBoolType SymFloat SymInt SymIntType Tag TensorType ThroughputBenchmark TracingState TupleType Type
    TypedStorage USE_GLOBAL_DEPS USE_RTLD_GLOBAL_WITH_LIBTORCH UnionType UntypedStorage Use Value addmv_
    affine_grid_generator alias_copy amp angle ao as_strided_ as_strided_copy as_strided_scatter autocast
    autocast_decrement_nesting autocast_increment_nesting bartlett_window batch_norm_backward_elemt
    batch_norm_backward_reduce batch_norm_elemt batch_norm_gather_stats batch_norm_gather_stats_with_counts
    batch_norm_stats batch_norm_update_stats bfloat16 binomial bit bits16 bits1x8 bits2x4 bits4x2 bits8
    blackman_window ccol_indices_copy cdouble chalf choose_qparams_optimized classes classproperty
    clear_autocast_cache col_indices_copy combinations compiled_with_cxx11_abi compiler complex complex128 complex32
    complex64 cond conj_physical_ conv_tbc cpp cpu crow_indices_copy ctc_loss cudnn_affine_grid_generator
    cudnn_batch_norm cudnn_convolution cudnn_convolution_add_relu cudnn_convolution_relu cudnn_convolution_transpose
    cudnn_grid_sampler cudnn_is_acceptable cumulative_trapezoid dequantize detach_copy diagonal_copy distributed
    dsmm embedding_bag embedding_renorm_ empty_permuted empty_quantized expand_copy export
    fake_quantize_per_channel_affine fake_quantize_per_tensor_affine fbgemm_linear_fp16_weight
    fbgemm_linear_fp16_weight_fp32_activation fbgemm_linear_int8_weight fbgemm_linear_int8_weight_fp32_activation
    fbgemm_linear_quantize_weight fbgemm_pack_gemm_matrix_fp16 fbgemm_pack_quantized_matrix fft fill
    float4_e2m1fn_x2 float8_e4m3fn float8_e4m3fnuz float8_e5m2 float8_e5m2fnuz float8_e8m0fnu fork frexp
    frobenius_norm from_file functional fused_moving_avg_obs_fake_quant futures fx gcd gcd_ geqrf
    get_autocast_cpu_dtype get_autocast_dtype get_autocast_gpu_dtype get_autocast_ipu_dtype get_autocast_xla_dtype
    get_deterministic_debug_mode get_device get_device_module get_file_path gradient grid_sampler grid_sampler_2d
    grid_sampler_3d gru hamming_window hann_window has_lapack has_mkl has_openmp has_spectral hash_tensor histogram
    histogramdd hsmm hspmm hub i0_ import_ir_module import_ir_module_from_buffer index_reduce
    indices_copy init_num_threads int1 int2 int3 int4 int5 int6 int7 int_repr is_autocast_cache_enabled
    is_autocast_cpu_enabled is_autocast_enabled is_autocast_ipu_enabled is_autocast_xla_enabled is_distributed
    is_vulkan_available is_warn_always_enabled istft jagged jit kaiser_window lcm lcm_ ldexp_
    legacy_contiguous_format library lobpcg lstm lu lu_solve lu_unpack masked matrix_exp
    merge_type_from_type_comment miopen_batch_norm miopen_convolution miopen_convolution_add_relu
    miopen_convolution_relu miopen_convolution_transpose miopen_ctc_loss miopen_depthwise_convolution miopen_rnn
    mkldnn_adaptive_avg_pool2d mkldnn_convolution mkldnn_linear_backward_weights mkldnn_max_pool2d mkldnn_max_pool3d
    mkldnn_rnn_layer monitor mps mtia multiprocessing mvlgamma native_norm negative_ nested nonzero_static
    norm_except_dim nuclear_norm ops orgqr ormqr overrides package parse_ir parse_schema parse_type_comment
    pca_lowrank per_channel_affine per_channel_affine_float_qparams per_channel_symmetric per_tensor_affine
    per_tensor_symmetric permute_copy poisson polar prepare_multiprocessing_environment profiler
    profiler_allow_cudagraph_cupti_lazy_reinit_cuda12 q_per_channel_axis q_per_channel_scales
    q_per_channel_zero_points q_scale q_zero_point qint32 qint8 qscheme quantization quantize_per_channel
    quantize_per_tensor quantize_per_tensor_dynamic quantized_batch_norm quantized_gru quantized_gru_cell
    quantized_lstm quantized_lstm_cell quantized_max_pool1d quantized_max_pool2d quantized_max_pool3d
    quantized_rnn_relu_cell quantized_rnn_tanh_cell quasirandom quint2x4 quint4x2 quint8 renorm resize_as_
    resize_as_sparse_ rnn_relu rnn_tanh row_indices_copy saddmm segment_reduce select_copy
    set_autocast_cache_enabled set_autocast_cpu_dtype set_autocast_cpu_enabled set_autocast_dtype
    set_autocast_enabled set_autocast_gpu_dtype set_autocast_ipu_dtype set_autocast_ipu_enabled
    set_autocast_xla_dtype set_autocast_xla_enabled set_deterministic_debug_mode set_flush_denormal
    set_num_interop_threads set_warn_always signal slice_copy slice_inverse smm sparse sparse_bsc sparse_bsc_tensor
    sparse_bsr sparse_bsr_tensor sparse_compressed_tensor sparse_coo_tensor sparse_csc sparse_csc_tensor sparse_csr
    sparse_csr_tensor split_copy split_with_sizes_copy spmm squeeze_copy sspaddmm stft storage svd_lowrank
    sym_constrain_range sym_constrain_range_for_size sym_float sym_fresh_size sym_int sym_ite sym_max sym_min
    sym_not sym_sqrt sym_sum t_copy thread_safe_generator to_dlpack torch torch_version transpose_copy types uint1
    uint16 uint2 uint3 uint32 uint4 uint5 uint6 uint64 uint7 unbind_copy unfold_copy unify_type_list unsqueeze_copy
    values_copy vander view_as_complex view_as_complex_copy view_as_real view_as_real_copy view_copy wait while_loop
    windows xpu""".split())
TENSOR = frozenset("""
    angle as_strided_scatter bfloat16 ccol_indices cdouble cfloat chalf coalesce col_indices conj_physical_
    const_data_ptr crow_indices dense_dim dequantize dim_order frexp gcd gcd_ geqrf hash_tensor histogram
    index index_reduce index_reduce_ indices int_repr ipu is_coalesced is_distributed istft
    lcm lcm_ lu lu_solve map2_ matrix_exp module_load mtia mvlgamma mvlgamma_ new_empty_strided nonzero_static orgqr
    ormqr q_per_channel_axis q_per_channel_scales q_per_channel_zero_points q_scale q_zero_point qscheme
    record_stream reinforce renorm renorm_ resize_as_sparse_ row_indices slice_inverse smm sparse_dim sparse_mask
    sparse_resize_ sparse_resize_and_clear_ sspaddmm stft storage_type to_dense to_mkldnn to_padded_tensor to_sparse
    to_sparse_bsc to_sparse_bsr to_sparse_coo to_sparse_csc to_sparse_csr values xpu""".split())


# PyTorch's submodules (files and packages) that the engine lacked, by package: a `dir()` lists them only once they
# are imported (`import torch.utils.tensorboard`).
SUBMODULES = {
    'torch.utils': frozenset("""
        backcompat backend_registration bundled_inputs collect_env cpp_backtrace cpp_extension debug_log
        deterministic dlpack file_baton flop_counter hipify jit mkldnn mobile_optimizer model_dump model_zoo
        module_tracker serialization show_pickle tensorboard throughput_benchmark viz weak""".split()),
    'torch.nn': frozenset('backends common_types cpp grad intrinsic parallel qat quantizable quantized'.split()),
    'torch.autograd': frozenset('forward_ad profiler profiler_legacy profiler_util'.split()),
    'torch.nn.utils': frozenset('fusion memory_format'.split()),
    'torch.optim': frozenset('sparse_adam'.split()),
}


def pytorch_has(module, name):
    """Whether PyTorch 2.13 has `name` in `module` ('torch', 'torch.nn', 'torch.Tensor', ...) where the engine has not
    (False where unknown: a module without a list here)."""
    if module == 'torch':
        return name in TORCH
    if module == 'torch.Tensor':
        return name in TENSOR
    return name in SUBMODULES.get(module, ()) or module in NAMES and name in NAMES[module][0].split()
